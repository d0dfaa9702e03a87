// Command wendyhelper is wendy-llm's window on Go: it renders text/template
// templates exactly as `wendy init` does, and answers the Go standard-library
// calls the CLI's value rules make (strconv, fmt's %v, regexp, strings), so
// Python never re-implements them.
//
// Templates are rendered as the CLI renders them: text/template,
// Option("missingkey=error"), default delimiters, no extra functions, the
// template named by the file's relative path, data a map[string]interface{}.
//
// It is a long-lived process speaking framed binary messages on stdin/stdout.
// This comment is the protocol's one definition (wendy_llm/engine/wire.py is
// the other side). All integers are big-endian.
//
// Request frame: u32 length, then u8 op and the op's body:
//
//	'R' render, 'B' bench:
//	  u64 max output bytes per render, ['B' only: u32 iterations],
//	  u32 nTexts, nTexts x (u32 len, bytes),
//	  u32 nData,  nData x value (each a tagged map),
//	  u32 nJobs,  nJobs x (u32 len, name bytes, u32 text index, u32 data index).
//	'E' evaluate Go calls:
//	  u32 nCalls, nCalls x (u8 function, arguments); see evaluate for the
//	  functions, their arguments (strings are u32 len, bytes) and answers.
//
// Values are tagged: 'n' nil, 't'/'f' bool, 'i' int (i64), 'd' float64,
// 's' string (u32 len, bytes), 'l' list (u32 n, values),
// 'm' map (u32 n, n x (u32 len, key bytes, value)).
//
// Response: one record per job or call, in order: u32 length (counting the
// kind byte), u8 kind, payload (the output, the answer or Go's error text).
// A malformed request gets a single kindBadRequest record instead.
//
// The helper exits when its input ends, at once, even mid-render: its parent
// closed the pipe or died. See exitWithParent for the parent-death signal.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
)

const (
	kindOK         = 0
	kindParseError = 1
	kindExecError  = 2
	kindTooLarge   = 3
	kindBench      = 4
	kindBadRequest = 5
	kindCallError  = 6

	// Results of fast renders are batched into few pipe writes, but none is
	// held back longer than this, so the Python side always knows which
	// render is running and can time out each render on its own.
	flushInterval = 5 * time.Millisecond
	// The parsed-template cache holds at most this many templates and this
	// much memory (what parsing them allocated: a parse tree takes 1 to 50
	// times its text). Clearing it wholesale is simple and only costs a
	// re-parse; a template bigger than the whole budget is not cached.
	maxCachedTemplates = 4096
	maxCacheBytes      = 64 << 20
	// Buffers that grew past this are dropped after use instead of kept,
	// and a request that rendered or dropped this much returns the freed
	// memory to the OS at once rather than keep it for the next peak.
	largeBytes = 4 << 20
	// A soft ceiling: near it Go collects garbage sooner instead of growing.
	memoryLimit = 256 << 20
)

var errTooLarge = errors.New("output too large")

type badRequest struct{ msg string }

// reader decodes a request payload; malformed input panics with badRequest.
type reader struct {
	b   []byte
	off int
}

func (r *reader) fail(format string, args ...interface{}) {
	panic(badRequest{fmt.Sprintf("at byte %d: ", r.off) + fmt.Sprintf(format, args...)})
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b)-r.off {
		r.fail("need %d bytes, %d left", n, len(r.b)-r.off)
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8() byte    { return r.take(1)[0] }
func (r *reader) u32() uint32 { return binary.BigEndian.Uint32(r.take(4)) }
func (r *reader) u64() uint64 { return binary.BigEndian.Uint64(r.take(8)) }

// count reads an element count and rejects counts the remaining bytes cannot
// hold (each element takes at least minSize bytes), so a corrupt count never
// triggers a huge allocation.
func (r *reader) count(minSize int) int {
	n := int(r.u32())
	if n*minSize > len(r.b)-r.off {
		r.fail("count %d exceeds the request", n)
	}
	return n
}

func (r *reader) blob() []byte { return r.take(int(r.u32())) }

func (r *reader) value(depth int) interface{} {
	if depth > 10000 {
		r.fail("data nested too deeply")
	}
	switch tag := r.u8(); tag {
	case 'n':
		return nil
	case 't':
		return true
	case 'f':
		return false
	case 'i':
		return int(int64(r.u64()))
	case 'd':
		return math.Float64frombits(r.u64())
	case 's':
		return string(r.blob())
	case 'l':
		list := make([]interface{}, r.count(1))
		for i := range list {
			list[i] = r.value(depth + 1)
		}
		return list
	case 'm':
		return r.mapValue(depth)
	default:
		r.fail("unknown value tag %q", tag)
		return nil
	}
}

func (r *reader) mapValue(depth int) map[string]interface{} {
	n := r.count(5)
	m := make(map[string]interface{}, n)
	for i := 0; i < n; i++ {
		key := string(r.blob())
		m[key] = r.value(depth + 1)
	}
	return m
}

// limitWriter fails the render once it would exceed its budget, so a runaway
// template cannot exhaust memory.
type limitWriter struct {
	buf  *bytes.Buffer
	left uint64
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if uint64(len(p)) > w.left {
		return 0, errTooLarge
	}
	w.left -= uint64(len(p))
	return w.buf.Write(p)
}

type job struct {
	name       string
	text, data int
}

// call is one Go function call of an 'E' request.
type call struct {
	fn    byte
	args  []string    // the string arguments
	value interface{} // 'v' only
}

type request struct {
	op         byte
	maxOutput  uint64
	iterations int
	texts      [][]byte
	data       []map[string]interface{}
	jobs       []job
	calls      []call
}

type server struct {
	mu         sync.Mutex // guards out, armed: the flush timer writes too
	out        *bufio.Writer
	flushTimer *time.Timer
	armed      bool
	// name -> text -> parsed template.  Keyed by the text itself: Go
	// hashes a string key far faster than sha256 would, and a lookup with
	// string(bytes) does not allocate.
	cache      map[string]map[string]*template.Template
	cached     int
	cacheBytes uint64
	buf        bytes.Buffer
	// Set when a request handled or dropped largeBytes or more.
	freeMemory bool
}

func newServer(out io.Writer) *server {
	s := &server{
		out:   bufio.NewWriterSize(out, 64<<10),
		cache: make(map[string]map[string]*template.Template),
	}
	s.flushTimer = time.AfterFunc(time.Hour, s.flush)
	s.flushTimer.Stop()
	return s
}

// Arguments of each function of an 'E' request (see evaluate).
var callArgs = map[byte]int{'a': 1, 'b': 1, 'q': 1, 't': 1, 's': 1, 'c': 1, 'r': 2, 'v': 0}

func decodeRequest(payload []byte) (req request) {
	r := &reader{b: payload}
	req.op = r.u8()
	switch req.op {
	case 'R', 'B':
		decodeRenders(r, &req)
	case 'E':
		req.calls = make([]call, r.count(2))
		for i := range req.calls {
			c := &req.calls[i]
			c.fn = r.u8()
			n, known := callArgs[c.fn]
			if !known {
				r.fail("unknown function %q", c.fn)
			}
			for ; n > 0; n-- {
				c.args = append(c.args, string(r.blob()))
			}
			if c.fn == 'v' {
				c.value = r.value(0)
			}
		}
	default:
		r.fail("unknown op %q", req.op)
	}
	if r.off != len(payload) {
		r.fail("%d trailing bytes", len(payload)-r.off)
	}
	return req
}

func decodeRenders(r *reader, req *request) {
	req.maxOutput = r.u64()
	if req.op == 'B' {
		req.iterations = int(r.u32())
	}
	req.texts = make([][]byte, r.count(4))
	for i := range req.texts {
		req.texts[i] = r.blob()
	}
	req.data = make([]map[string]interface{}, r.count(5))
	for i := range req.data {
		if tag := r.u8(); tag != 'm' {
			r.fail("data %d is not a map (tag %q)", i, tag)
		}
		req.data[i] = r.mapValue(0)
	}
	req.jobs = make([]job, r.count(12))
	for i := range req.jobs {
		name := string(r.blob())
		t, d := int(r.u32()), int(r.u32())
		if t >= len(req.texts) || d >= len(req.data) {
			r.fail("job %d refers to text %d / data %d out of range", i, t, d)
		}
		req.jobs[i] = job{name, t, d}
	}
}

// evaluate answers one call with the very function the Wendy CLI uses:
//
//	'a' strconv.Atoi(s)           -> i64
//	'b' strconv.ParseBool(s)      -> u8 0 or 1
//	'v' fmt.Sprintf("%v", value)  -> the text (the argument is a tagged value)
//	'q' strconv.Quote(s)          -> the text
//	't' strings.TrimSpace(s)      -> the text
//	's' the CLI's "contains" split: strings.Split(s, ","), each part
//	    TrimSpace'd               -> n x (u32 len, part)
//	'c' regexp.Compile(pattern)   -> nothing
//	'r' regexp.MatchString(pattern, s) -> u8 0 or 1
//
// A Go error (Atoi's, ParseBool's, a regexp's compile error) is the answer's
// kindCallError payload.
func evaluate(c call) ([]byte, error) {
	switch c.fn {
	case 'a':
		n, err := strconv.Atoi(c.args[0])
		return binary.BigEndian.AppendUint64(nil, uint64(int64(n))), err
	case 'b':
		b, err := strconv.ParseBool(c.args[0])
		return flag(b), err
	case 'v':
		return []byte(fmt.Sprintf("%v", c.value)), nil
	case 'q':
		return []byte(strconv.Quote(c.args[0])), nil
	case 't':
		return []byte(strings.TrimSpace(c.args[0])), nil
	case 's':
		var out []byte
		for _, part := range strings.Split(c.args[0], ",") {
			part = strings.TrimSpace(part)
			out = binary.BigEndian.AppendUint32(out, uint32(len(part)))
			out = append(out, part...)
		}
		return out, nil
	case 'c':
		_, err := regexp.Compile(c.args[0])
		return nil, err
	default: // 'r'
		matched, err := regexp.MatchString(c.args[0], c.args[1])
		return flag(matched), err
	}
}

func flag(b bool) []byte {
	if b {
		return []byte{1}
	}
	return []byte{0}
}

var allocs = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// allocated is the bytes allocated so far (cheap: no stop-the-world).
func allocated() uint64 {
	metrics.Read(allocs)
	return allocs[0].Value.Uint64()
}

// parse returns the template for (name, text), parsing it only on a cache miss.
func (s *server) parse(name string, text []byte) (*template.Template, error) {
	if t, ok := s.cache[name][string(text)]; ok {
		return t, nil
	}
	before := allocated()
	t, err := template.New(name).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, err
	}
	// The allocator counts whole spans: a small parse may read as 0 bytes.
	s.remember(name, string(text), t, max(allocated()-before, uint64(len(text))))
	return t, nil
}

// remember caches a parsed template that cost `cost` bytes to build,
// clearing the cache first when it would outgrow its bounds.
func (s *server) remember(name, text string, t *template.Template, cost uint64) {
	if cost > maxCacheBytes {
		s.freeMemory = true
		return
	}
	if s.cached >= maxCachedTemplates || s.cacheBytes+cost > maxCacheBytes {
		s.freeMemory = s.freeMemory || s.cacheBytes >= largeBytes
		s.cache = make(map[string]map[string]*template.Template)
		s.cached, s.cacheBytes = 0, 0
	}
	byText := s.cache[name]
	if byText == nil {
		byText = make(map[string]*template.Template)
		s.cache[name] = byText
	}
	byText[text] = t
	s.cached++
	s.cacheBytes += cost
}

// execute renders into s.buf and returns the record kind.
func (s *server) execute(t *template.Template, data map[string]interface{}, maxOutput uint64) (byte, error) {
	s.buf.Reset()
	err := t.Execute(&limitWriter{&s.buf, maxOutput}, data)
	if s.buf.Len() >= largeBytes {
		s.freeMemory = true
	}
	switch {
	case err == nil:
		return kindOK, nil
	case errors.Is(err, errTooLarge):
		return kindTooLarge, err
	default:
		return kindExecError, err
	}
}

func (s *server) record(kind byte, payload []byte) {
	var hdr [5]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(payload)+1))
	hdr[4] = kind
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(hdr[:])
	s.out.Write(payload)
	if !s.armed {
		s.armed = true
		s.flushTimer.Reset(flushInterval)
	}
}

// flush sends everything buffered; the timer calls it while a long render
// runs, and handle calls it when a request is done.
func (s *server) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed = false
	if err := s.out.Flush(); err != nil {
		// The reader is gone: nobody is left to answer.
		os.Exit(3)
	}
}

// handle answers one request completely (records written and flushed).
func (s *server) handle(payload []byte) {
	s.answer(payload)
	s.flushTimer.Stop()
	s.flush()
	if s.buf.Cap() > largeBytes {
		s.buf = bytes.Buffer{}
	}
	if s.freeMemory || len(payload) >= largeBytes {
		s.freeMemory = false
		debug.FreeOSMemory()
	}
}

func (s *server) answer(payload []byte) {
	req, bad := safeDecode(payload)
	if bad != "" {
		s.record(kindBadRequest, []byte(bad))
		return
	}
	for _, c := range req.calls {
		answer, err := evaluate(c)
		if err != nil {
			s.record(kindCallError, []byte(err.Error()))
		} else {
			s.record(kindOK, answer)
		}
	}
	for _, j := range req.jobs {
		t, err := s.parse(j.name, req.texts[j.text])
		if err != nil {
			s.record(kindParseError, []byte(err.Error()))
			continue
		}
		if req.op == 'B' {
			s.bench(t, req.data[j.data], req.maxOutput, req.iterations)
			continue
		}
		kind, err := s.execute(t, req.data[j.data], req.maxOutput)
		if err != nil {
			s.record(kind, []byte(err.Error()))
		} else {
			s.record(kind, s.buf.Bytes())
		}
	}
}

// bench executes one parsed template many times and reports the total time,
// the in-process floor the Python side's per-render cost is compared with.
func (s *server) bench(t *template.Template, data map[string]interface{}, maxOutput uint64, n int) {
	start := time.Now()
	for i := 0; i < n; i++ {
		if kind, err := s.execute(t, data, maxOutput); err != nil {
			s.record(kind, []byte(err.Error()))
			return
		}
	}
	elapsed := time.Since(start)
	var payload [16]byte
	binary.BigEndian.PutUint64(payload[:8], uint64(n))
	binary.BigEndian.PutUint64(payload[8:], uint64(elapsed.Nanoseconds()))
	s.record(kindBench, payload[:])
}

func safeDecode(payload []byte) (req request, bad string) {
	defer func() {
		if v := recover(); v != nil {
			b, ok := v.(badRequest)
			if !ok {
				panic(v)
			}
			bad = "malformed request " + b.msg
		}
	}()
	return decodeRequest(payload), ""
}

// readFrames hands each request frame to the main loop, and ends the
// process when the input ends, even while a render is running: the parent
// closed the pipe or died, and nobody is left to want the answer.
func readFrames(in io.Reader, frames chan<- []byte) {
	r := bufio.NewReaderSize(in, 64<<10)
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if err == io.EOF {
				os.Exit(0) // a clean shutdown
			}
			fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
			os.Exit(2)
		}
		// A fresh buffer each time: the main loop may still be using the last.
		payload := make([]byte, binary.BigEndian.Uint32(hdr[:]))
		if _, err := io.ReadFull(r, payload); err != nil {
			fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
			os.Exit(2)
		}
		frames <- payload
	}
}

func main() {
	exitWithParent()
	// The helper's heap is small and short-lived; collecting less often is
	// a cheap speed-up, and the limit stops that from inflating big heaps.
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(memoryLimit)
	s := newServer(os.Stdout)
	frames := make(chan []byte)
	go readFrames(os.Stdin, frames)
	for payload := range frames {
		s.handle(payload)
	}
}
