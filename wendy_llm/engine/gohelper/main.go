// Command wendyhelper renders Go text/template templates for wendy-llm.
//
// It is a long-lived process speaking a framed binary protocol on
// stdin/stdout; the Python side (wendy_llm/engine/client.py) documents and tests it.
// Templates are rendered exactly as `wendy init` does: text/template,
// Option("missingkey=error"), default delimiters, no extra functions, the
// template named by the file's relative path, data a map[string]interface{}.
//
// Request frame:  u32 length, then
//
//	u8 op ('R' render, 'B' bench), u64 max output bytes per render,
//	[op 'B' only: u32 iterations],
//	u32 nTexts, nTexts x (u32 len, bytes),
//	u32 nData,  nData x value (a tagged map),
//	u32 nJobs,  nJobs x (u32 len, name bytes, u32 text index, u32 data index).
//
// Values are tagged: 'n' nil, 't'/'f' bool, 'i' int (i64), 'd' float64,
// 's' string (u32 len, bytes), 'l' list (u32 n, values),
// 'm' map (u32 n, n x (u32 len, key bytes, value)).
//
// Response: one record per job, in order: u32 length, u8 kind, payload.
// A malformed request gets a single kindBadRequest record instead.
// All integers are big-endian.
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
	"runtime/debug"
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

	// Results of fast renders are batched into few pipe writes, but none is
	// held back longer than this, so the Python side always knows which
	// render is running and can time out each render on its own.
	flushInterval = 5 * time.Millisecond
	// Bounds the parsed-template cache; clearing it wholesale is simple and
	// only costs a re-parse.
	maxCachedTemplates = 4096
	// Buffers that grew past this are dropped after use instead of kept.
	keepBufferBytes = 4 << 20
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

type request struct {
	op         byte
	maxOutput  uint64
	iterations int
	texts      [][]byte
	data       []map[string]interface{}
	jobs       []job
}

type server struct {
	mu         sync.Mutex // guards out, armed: the flush timer writes too
	out        *bufio.Writer
	flushTimer *time.Timer
	armed      bool
	// name -> text -> parsed template.  Keyed by the text itself: Go
	// hashes a string key far faster than sha256 would, and a lookup with
	// string(bytes) does not allocate.
	cache  map[string]map[string]*template.Template
	cached int
	buf    bytes.Buffer
}

func decodeRequest(payload []byte) (req request) {
	r := &reader{b: payload}
	req.op = r.u8()
	if req.op != 'R' && req.op != 'B' {
		r.fail("unknown op %q", req.op)
	}
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
	if r.off != len(payload) {
		r.fail("%d trailing bytes", len(payload)-r.off)
	}
	return req
}

// parse returns the template for (name, text), parsing it only on a cache miss.
func (s *server) parse(name string, text []byte) (*template.Template, error) {
	byText := s.cache[name]
	if t, ok := byText[string(text)]; ok {
		return t, nil
	}
	t, err := template.New(name).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, err
	}
	if s.cached >= maxCachedTemplates {
		s.cache = make(map[string]map[string]*template.Template)
		s.cached = 0
		byText = nil
	}
	if byText == nil {
		byText = make(map[string]*template.Template)
		s.cache[name] = byText
	}
	byText[string(text)] = t
	s.cached++
	return t, nil
}

// execute renders into s.buf and returns the record kind.
func (s *server) execute(t *template.Template, data map[string]interface{}, maxOutput uint64) (byte, error) {
	s.buf.Reset()
	err := t.Execute(&limitWriter{&s.buf, maxOutput}, data)
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

func (s *server) handle(payload []byte) {
	req, bad := safeDecode(payload)
	if bad != "" {
		s.record(kindBadRequest, []byte(bad))
		return
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
	if s.buf.Cap() > keepBufferBytes {
		s.buf = bytes.Buffer{}
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

func main() {
	// The helper's heap is small and short-lived; collecting less often is
	// a cheap speed-up.
	debug.SetGCPercent(400)
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	s := &server{
		out:   bufio.NewWriterSize(os.Stdout, 64<<10),
		cache: make(map[string]map[string]*template.Template),
	}
	s.flushTimer = time.AfterFunc(time.Hour, s.flush)
	s.flushTimer.Stop()
	var hdr [4]byte
	var payload []byte
	for {
		if _, err := io.ReadFull(in, hdr[:]); err != nil {
			if err == io.EOF {
				return // stdin closed: a clean shutdown
			}
			fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
			os.Exit(2)
		}
		n := int(binary.BigEndian.Uint32(hdr[:]))
		if cap(payload) < n {
			payload = make([]byte, n)
		}
		payload = payload[:n]
		if _, err := io.ReadFull(in, payload); err != nil {
			fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
			os.Exit(2)
		}
		s.handle(payload)
		s.flushTimer.Stop()
		s.flush()
		if cap(payload) > keepBufferBytes {
			payload = nil
		}
	}
}
