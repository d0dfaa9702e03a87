//go:build linux

package main

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"unsafe"
)

// parentEnv names the variable carrying the parent's pid (set by
// wendy_llm/engine/process.py); without it, nothing is watched.
const parentEnv = "WENDY_LLM_PARENT_PID"

const prSetPdeathsig = 1

// pollIn is POLLIN (data to read); pollHangup is POLLHUP: every writer of
// the pipe has closed it.
const (
	pollIn     = 0x1
	pollHangup = 0x10
)

// exitWithParent asks the kernel for SIGHUP when the parent dies, so a
// killed parent never leaves the helper running, even when a process it
// forked still holds the helper's input open (then no end of input comes).
//
// Linux sends the signal when the *thread* that started the helper ends,
// which in a threaded parent is not the parent's death: the helper leaves
// only once its parent process has changed. A parent that died before the
// prctl call is caught by the same check. (Go never ends the thread that
// made the call: threads end only under a goroutine locked to them.)
func exitWithParent() {
	parent, err := strconv.Atoi(os.Getenv(parentEnv))
	if err != nil {
		return
	}
	hangups := make(chan os.Signal, 1)
	signal.Notify(hangups, syscall.SIGHUP)
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetPdeathsig, uintptr(syscall.SIGHUP), 0)
	if errno != 0 {
		signal.Reset(syscall.SIGHUP)
		return // the end of input still stops the helper
	}
	if os.Getppid() != parent {
		os.Exit(0)
	}
	go func() {
		for range hangups {
			if os.Getppid() != parent {
				os.Exit(0)
			}
		}
	}()
}

// inputClosed tells, without reading or waiting, whether every writer of
// the pipe on fd has closed it (poll reports POLLHUP even with no events
// asked for, and even while unread data remains).
func inputClosed(fd int) bool {
	return pollNow(fd, 0)&pollHangup != 0
}

// inputReady tells, without reading or waiting, whether a read of fd would
// return at once (data, or the end of input), after giving the CPU to any
// other thread waiting for it: see awaitRequest.
func inputReady(fd int) bool {
	syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
	return pollNow(fd, pollIn)&(pollIn|pollHangup) != 0
}

// pollNow is ppoll on one fd with a zero timeout: its returned events.
func pollNow(fd int, events int16) int16 {
	pollfd := struct {
		fd             int32
		events, revent int16
	}{fd: int32(fd), events: events}
	var timeout syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pollfd)), 1,
		uintptr(unsafe.Pointer(&timeout)), 0, 0, 0)
	if errno != 0 || n != 1 {
		return 0
	}
	return pollfd.revent
}
