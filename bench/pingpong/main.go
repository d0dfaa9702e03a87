//go:build linux

// Command pingpong answers each frame it reads on stdin (u32 length,
// payload) with a fixed answer of -answer bytes on stdout, and nothing
// else: the floor under the Go helper's round trip (bench/bench_pipe.py).
// It reads and writes as the helper does (a bufio.Reader, one flush per
// answer), and with -spin-us N watches its input that long before it
// blocks in read, as the helper does between quick requests.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// ready tells, without waiting, whether a read of fd would return at once,
// after giving the CPU to any other thread that wants it.
func ready(fd int) bool {
	syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
	pollfd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(fd), events: 0x1}
	var timeout syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pollfd)), 1,
		uintptr(unsafe.Pointer(&timeout)), 0, 0, 0)
	return errno == 0 && n == 1
}

func main() {
	answerSize := flag.Int("answer", 2700, "bytes of each answer, its length prefix included")
	spinMicros := flag.Int("spin-us", 0, "microseconds to watch the input before a read blocks")
	flag.Parse()
	spin := time.Duration(*spinMicros) * time.Microsecond
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	answer := make([]byte, max(*answerSize, 4))
	binary.BigEndian.PutUint32(answer, uint32(len(answer)-4))
	var header [4]byte
	for {
		if spin > 0 && in.Buffered() == 0 {
			deadline := time.Now().Add(spin)
			for !ready(0) && time.Now().Before(deadline) {
			}
		}
		if _, err := io.ReadFull(in, header[:]); err != nil {
			return // the end of input
		}
		if _, err := in.Discard(int(binary.BigEndian.Uint32(header[:]))); err != nil {
			return
		}
		out.Write(answer)
		if out.Flush() != nil {
			return
		}
	}
}
