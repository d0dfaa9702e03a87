// Command wendyhelper is wendy-llm's window on Go: it renders text/template
// templates exactly as `wendy init` does, and answers the Go standard-library
// calls the CLI's value rules make (strconv, fmt's %v, regexp, strings), so
// Python never re-implements them.
//
// Templates are rendered as the CLI renders them: text/template,
// Option("missingkey=error"), default delimiters, no extra functions, the
// template named by the file's relative path, data a map[string]interface{}.
//
// Files: main.go the protocol and the request loop; render.go rendering and
// the parse cache; calls.go the Go calls; parent_linux.go (parent_other.go
// elsewhere) noticing that the parent is gone. Standard library only.
//
// It is a long-lived process speaking framed binary messages on stdin/stdout.
// This comment is the protocol's one definition (wendy_llm/engine/wire.py is
// the other side). All integers are big-endian.
//
// Request frame: u32 length, then u8 op and the op's body:
//
//	'R' render, 'B' bench:
//	  u64 max output bytes per render, ['B' only: u32 iterations],
//	  u8 1 to forget every kept text first (else 0),
//	  u32 nTexts, nTexts x text, where a text is one of
//	    't' (u32 len, bytes)         the text itself, used by this request only;
//	    'k' u32 id, (u32 len, bytes) the text, kept under id for later requests;
//	    'r' u32 id                   the text kept under id,
//	  u32 nData,  nData x value (each a tagged map),
//	  u32 nJobs,  nJobs x (u32 len, name bytes, u32 text index, u32 data index).
//
// Kept texts spare sending a template's text with every render. The Python
// side decides what is kept and when all is forgotten (it knows what each
// helper holds, and a new helper holds nothing); the helper never forgets a
// text on its own, and rejects a request that would keep more than
// -kept-texts texts or -kept-text-bytes bytes, or refers to an unknown id.
//
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
// A render whose output equals an earlier render's of the same request gets
// a kindSame record instead, its payload a u32: how many jobs back that
// render is (see sameOutputs). A malformed request gets a single
// kindBadRequest record instead.
//
// The helper exits when its input ends, at once, even mid-render (see
// watch): its parent closed the pipe or died. See exitWithParent for the
// parent-death signal.
//
// Command line (all required; wendy_llm/options.py holds the values):
// -parse-cache-templates N and -parse-cache-bytes N bound the parsed-template
// cache: at most N templates and N bytes of estimated parse trees;
// -kept-texts N and -kept-text-bytes N bound the kept texts. Optional:
// -request-spin-us N (see awaitRequest; 0, the default, never spins).
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	flags "flag" // calls.go has a func flag
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
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
	kindSame       = 7

	// Results of fast renders are batched into few pipe writes, but none is
	// held back longer than this, so the Python side always knows which
	// render is running and can time out each render on its own.
	flushInterval = 5 * time.Millisecond
	// How often a running request checks that its input is still open.
	watchInterval = 50 * time.Millisecond
	// Buffers that grew past this are dropped after use instead of kept,
	// and a request that parsed, rendered or dropped this much returns the
	// freed memory to the OS at once rather than keep it for the next peak.
	largeBytes = 4 << 20
	// A soft ceiling: near it Go collects garbage sooner instead of growing.
	memoryLimit = 256 << 20
)

type badRequest struct{ msg string }

// reader decodes a request payload; malformed input panics with badRequest.
type reader struct {
	b   []byte
	off int
	// Short strings seen before, to share instead of allocate: map keys and
	// template names repeat in every render of a batch (nil: no sharing).
	intern map[string]string
}

// str decodes a string (u32 len, bytes), shared through intern if short.
func (r *reader) str() string {
	b := r.blob()
	if r.intern == nil || len(b) > 64 {
		return string(b)
	}
	if s, found := r.intern[string(b)]; found {
		return s
	}
	if len(r.intern) >= 4096 {
		clear(r.intern)
	}
	s := string(b)
	r.intern[s] = s
	return s
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
	return r.fillMap(nil, depth)
}

// fillMap decodes a map's entries into m (emptied first), or a new map if nil.
func (r *reader) fillMap(m map[string]interface{}, depth int) map[string]interface{} {
	n := r.count(5)
	if m == nil {
		m = make(map[string]interface{}, n)
	} else {
		clear(m)
	}
	for i := 0; i < n; i++ {
		key := r.str()
		m[key] = r.value(depth + 1)
	}
	return m
}

type job struct {
	name       string
	text, data int
}

type request struct {
	op         byte
	maxOutput  uint64
	iterations int
	clearKept  bool
	texts      []string
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
	// The cache holds at most maxCached templates and maxCacheBytes of
	// estimated parse trees (see parsedSize: 1 to 50 times the text).
	// Clearing it wholesale is simple and only costs a re-parse; a template
	// bigger than the whole budget is not cached.
	maxCached     int
	maxCacheBytes uint64
	buf           bytes.Buffer
	// Set when a request handled or dropped largeBytes or more.
	freeMemory bool
	// Whether more records of this request follow the one being written:
	// only then can a record wait for the flush timer (the last one is
	// flushed when the request is done, with no timer to arm).
	more     bool
	busy     atomic.Bool  // a request is being handled
	watchdog *time.Timer  // calls watch while busy
	same     *sameOutputs // the current request's outputs
	// Reused by each render request (see decodeRenders), never held past it.
	texts    []string
	data     []map[string]interface{}
	dataMaps []map[string]interface{}
	jobs     []job
	limit    limitWriter
	intern   map[string]string // see reader.intern
	// Whether the watchdog is armed: it re-arms itself while requests keep
	// coming, so a request costs no timer operation (see startWatch).
	watching atomic.Bool
	// Texts kept between requests by id (see the protocol), and their bounds.
	kept         map[uint32]string
	keptBytes    uint64
	maxKept      int
	maxKeptBytes uint64
}

// limits are the command line's bounds.
type limits struct {
	cachedTemplates int
	cacheBytes      uint64
	keptTexts       int
	keptTextBytes   uint64
}

func newServer(out io.Writer, l limits) *server {
	s := &server{
		out:           bufio.NewWriterSize(out, 64<<10),
		cache:         make(map[string]map[string]*template.Template),
		maxCached:     l.cachedTemplates,
		maxCacheBytes: l.cacheBytes,
		kept:          make(map[uint32]string),
		same:          newSameOutputs(),
		intern:        make(map[string]string),
		maxKept:       l.keptTexts,
		maxKeptBytes:  l.keptTextBytes,
	}
	s.flushTimer = time.AfterFunc(time.Hour, s.flush)
	s.flushTimer.Stop()
	s.watchdog = time.AfterFunc(time.Hour, s.watch)
	s.watchdog.Stop()
	return s
}

func (s *server) decodeRequest(payload []byte) (req request) {
	r := &reader{b: payload, intern: s.intern}
	req.op = r.u8()
	switch req.op {
	case 'R', 'B':
		s.decodeRenders(r, &req)
	case 'E':
		req.calls = decodeCalls(r)
	default:
		r.fail("unknown op %q", req.op)
	}
	if r.off != len(payload) {
		r.fail("%d trailing bytes", len(payload)-r.off)
	}
	return req
}

func (s *server) decodeRenders(r *reader, req *request) {
	req.maxOutput = r.u64()
	if req.op == 'B' {
		req.iterations = int(r.u32())
	}
	if r.u8() == 1 {
		s.kept = make(map[uint32]string)
		s.keptBytes = 0
	}
	// The request's slices and top-level data maps are the server's, reused
	// from one request to the next (nothing keeps them past a request), as is
	// execute's limitWriter: 6 of the 12 allocations a single render made
	// outside text/template, 4.35 -> 4.0 us in BenchmarkHandleSingleRender
	// (handle_bench_test.go, best of 15, GOGC=400 as in the helper).
	s.texts = grow(s.texts, r.count(5))
	req.texts = s.texts
	for i := range req.texts {
		req.texts[i] = s.text(r)
	}
	s.data = grow(s.data, r.count(5))
	req.data = s.data
	for i := range req.data {
		if tag := r.u8(); tag != 'm' {
			r.fail("data %d is not a map (tag %q)", i, tag)
		}
		req.data[i] = r.fillMap(s.dataMap(i), 0)
	}
	s.jobs = grow(s.jobs, r.count(12))
	req.jobs = s.jobs
	for i := range req.jobs {
		name := r.str()
		t, d := int(r.u32()), int(r.u32())
		if t >= len(req.texts) || d >= len(req.data) {
			r.fail("job %d refers to text %d / data %d out of range", i, t, d)
		}
		req.jobs[i] = job{name, t, d}
	}
}

// grow returns a slice of length n, reusing b's memory unless it is too small
// or too large to keep (a big batch's slices are not held on to).
func grow[T any](b []T, n int) []T {
	if cap(b) < n || cap(b) > 4096 {
		return make([]T, n)
	}
	clear(b[min(n, len(b)):]) // the last request's entries past n, for the collector
	return b[:n]
}

// dataMap returns the reused top-level map for a request's i-th data map; a
// map that held many keys is replaced rather than cleared and kept.
func (s *server) dataMap(i int) map[string]interface{} {
	if i >= 64 {
		return nil
	}
	for len(s.dataMaps) <= i {
		s.dataMaps = append(s.dataMaps, make(map[string]interface{}))
	}
	if len(s.dataMaps[i]) > 256 {
		s.dataMaps[i] = make(map[string]interface{})
	}
	return s.dataMaps[i]
}

// text decodes one text of a render request (see the protocol).
func (s *server) text(r *reader) string {
	switch tag := r.u8(); tag {
	case 't':
		return string(r.blob())
	case 'k':
		id := r.u32()
		text := string(r.blob())
		if old, found := s.kept[id]; found {
			s.keptBytes -= uint64(len(old))
		}
		s.kept[id] = text
		s.keptBytes += uint64(len(text))
		if len(s.kept) > s.maxKept || s.keptBytes > s.maxKeptBytes {
			r.fail("kept texts exceed %d texts or %d bytes", s.maxKept, s.maxKeptBytes)
		}
		return text
	case 'r':
		id := r.u32()
		text, found := s.kept[id]
		if !found {
			r.fail("no kept text %d", id)
		}
		return text
	default:
		r.fail("unknown text tag %q", tag)
		return ""
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
	if !s.armed && s.more {
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
	s.mu.Lock()
	armed := s.armed
	s.mu.Unlock()
	if armed {
		s.flushTimer.Stop()
	}
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
	req, bad := s.safeDecode(payload)
	if bad != "" {
		s.record(kindBadRequest, []byte(bad))
		return
	}
	for i, c := range req.calls {
		s.more = i < len(req.calls)-1
		answer, err := evaluate(c)
		if err != nil {
			s.record(kindCallError, []byte(err.Error()))
		} else {
			s.record(kindOK, answer)
		}
	}
	same := s.same
	same.reset()
	for i, j := range req.jobs {
		s.more = i < len(req.jobs)-1
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
		} else if back, found := same.earlier(s.buf.Bytes(), i, s.more); found {
			s.record(kindSame, binary.BigEndian.AppendUint32(nil, uint32(back)))
		} else {
			s.record(kind, s.buf.Bytes())
		}
	}
}

func (s *server) safeDecode(payload []byte) (req request, bad string) {
	defer func() {
		if v := recover(); v != nil {
			b, ok := v.(badRequest)
			if !ok {
				panic(v)
			}
			bad = "malformed request " + b.msg
		}
	}()
	return s.decodeRequest(payload), ""
}

// readFrame reads one request frame; the end of input ends the process.
func readFrame(in *bufio.Reader) []byte {
	var hdr [4]byte
	if _, err := io.ReadFull(in, hdr[:]); err != nil {
		if err == io.EOF {
			os.Exit(0) // a clean shutdown
		}
		fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
		os.Exit(2)
	}
	payload := make([]byte, binary.BigEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(in, payload); err != nil {
		fmt.Fprintln(os.Stderr, "wendyhelper: reading request:", err)
		os.Exit(2)
	}
	return payload
}

// watch ends the process when the input is closed while a request runs:
// the parent closed the pipe or died, and nobody is left to want the
// answer. (Between requests, reading sees the end of input at once.) The
// main loop reads its input itself: handing frames over from a reader
// goroutine cost each request a goroutine wake-up (~12 us).
//
// The watchdog re-arms itself while busy, and between requests that follow
// each other closely, so a stream of quick requests costs no timer
// operation each; it stops once it finds the helper idle.
func (s *server) watch() {
	if !s.busy.Load() {
		s.watching.Store(false)
		// A request that started just now saw watching still true and
		// left the arming to us.
		if !s.busy.Load() || !s.watching.CompareAndSwap(false, true) {
			return
		}
	} else if inputClosed(0) {
		os.Exit(0)
	}
	s.watchdog.Reset(watchInterval)
}

// startWatch marks a request running and arms the watchdog if it is not.
func (s *server) startWatch() {
	s.busy.Store(true)
	if s.watching.CompareAndSwap(false, true) {
		s.watchdog.Reset(watchInterval)
	}
}

func main() {
	templates := flags.Int("parse-cache-templates", 0, "parsed templates kept (required)")
	cacheBytes := flags.Uint64("parse-cache-bytes", 0, "bytes of parse trees kept (required)")
	keptTexts := flags.Int("kept-texts", 0, "texts kept between requests (required)")
	keptBytes := flags.Uint64("kept-text-bytes", 0, "bytes of texts kept (required)")
	spinMicros := flags.Uint("request-spin-us", 0, "microseconds to watch for a next request")
	flags.Parse()
	if *templates <= 0 || *cacheBytes == 0 || *keptTexts <= 0 || *keptBytes == 0 || flags.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: wendyhelper -parse-cache-templates N -parse-cache-bytes N"+
			" -kept-texts N -kept-text-bytes N")
		os.Exit(2)
	}
	exitWithParent()
	// The helper's heap is small and short-lived; collecting less often is
	// a cheap speed-up, and the limit stops that from inflating big heaps.
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(memoryLimit)
	s := newServer(os.Stdout, limits{*templates, *cacheBytes, *keptTexts, *keptBytes})
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	spin := time.Duration(*spinMicros) * time.Microsecond
	var answered time.Time // when the last request was answered
	quick := false         // whether the next request came within spin of that
	for {
		if quick {
			awaitRequest(in, 0, spin)
		}
		payload := readFrame(in)
		quick = !answered.IsZero() && time.Since(answered) < spin
		s.startWatch()
		s.handle(payload)
		s.busy.Store(false)
		answered = time.Now()
	}
}

// awaitRequest watches the input for up to spin, yielding the CPU between
// looks, before the read blocks; main calls it when the last request came
// as soon after its predecessor's answer (a render loop). A reader blocked
// in read is woken by the kernel on an idle CPU, which cost a pipe round
// trip (Python to Go and back) 10 us of its 16 on the bench machine
// (docs/performance.md). A helper used less often never spins.
func awaitRequest(in *bufio.Reader, fd int, spin time.Duration) {
	if in.Buffered() > 0 {
		return
	}
	deadline := time.Now().Add(spin)
	for !inputReady(fd) && time.Now().Before(deadline) {
	}
}
