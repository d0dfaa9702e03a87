package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// frame builds request payloads the way wendy_llm/engine/wire.py does.
type frame struct{ b []byte }

func (f *frame) u8(v byte) *frame    { f.b = append(f.b, v); return f }
func (f *frame) u32(v uint32) *frame { f.b = binary.BigEndian.AppendUint32(f.b, v); return f }
func (f *frame) u64(v uint64) *frame { f.b = binary.BigEndian.AppendUint64(f.b, v); return f }
func (f *frame) str(s string) *frame { f.u32(uint32(len(s))); f.b = append(f.b, s...); return f }

type record struct {
	kind    byte
	payload []byte
}

// exchange runs one request through a fresh server and splits its answer.
func exchange(t *testing.T, s *server, out *bytes.Buffer, payload []byte) []record {
	t.Helper()
	out.Reset()
	s.handle(payload)
	var records []record
	b := out.Bytes()
	for len(b) > 0 {
		if len(b) < 5 {
			t.Fatalf("truncated record header: %q", b)
		}
		n := int(binary.BigEndian.Uint32(b))
		records = append(records, record{b[4], append([]byte(nil), b[5:4+n]...)})
		b = b[4+n:]
	}
	return records
}

// The parse cache's bounds in these tests (the byte budget must hold a few of
// the big templates of TestTheParseCacheIsBoundedByBytesAndCount).
const (
	maxCachedTemplates = 4096
	maxCacheBytes      = 64 << 20
)

func newTestServer() (*server, *bytes.Buffer) {
	out := &bytes.Buffer{}
	return newServer(out, limits{maxCachedTemplates, maxCacheBytes, 16, 1 << 20}), out
}

// calls is an 'E' request of one-string-argument calls of function fn.
func calls(fn byte, args ...string) []byte {
	f := (&frame{}).u8('E').u32(uint32(len(args)))
	for _, a := range args {
		f.u8(fn).str(a)
	}
	return f.b
}

func TestAtoiIsStrconvAtoi(t *testing.T) {
	s, out := newTestServer()
	huge := strings.Repeat("9", 5000)
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"5", 5, true}, {"-0", 0, true}, {"+7", 7, true}, {" 5", 0, false}, {"1_000", 0, false},
		{"9223372036854775807", math.MaxInt64, true}, {"9223372036854775808", 0, false},
		{"\uff19", 0, false}, {"", 0, false}, {huge, 0, false},
	}
	args := make([]string, len(cases))
	for i, c := range cases {
		args[i] = c.in
	}
	records := exchange(t, s, out, calls('a', args...))
	if len(records) != len(cases) {
		t.Fatalf("%d records for %d calls", len(records), len(cases))
	}
	for i, c := range cases {
		r := records[i]
		if ok := r.kind == kindOK; ok != c.ok {
			t.Errorf("Atoi(%.20q): kind %d, want ok=%v", c.in, r.kind, c.ok)
			continue
		}
		if c.ok && int64(binary.BigEndian.Uint64(r.payload)) != c.want {
			t.Errorf("Atoi(%q) = %x, want %d", c.in, r.payload, c.want)
		}
		if !c.ok && !strings.HasPrefix(string(r.payload), "strconv.Atoi: parsing ") {
			t.Errorf("Atoi(%.20q) error %q", c.in, r.payload)
		}
	}
}

func TestParseBoolQuoteTrimAndParts(t *testing.T) {
	s, out := newTestServer()
	for _, c := range []struct {
		fn   byte
		in   string
		kind byte
		want string
	}{
		{'b', "T", kindOK, "\x01"},
		{'b', "False", kindOK, "\x00"},
		{'b', "yes", kindCallError, `strconv.ParseBool: parsing "yes": invalid syntax`},
		{'q', "a\"b\n\xff☃", kindOK, `"a\"b\n\xff☃"`},
		{'t', "\u3000 x\x1c \u0085", kindOK, "x\x1c"},
		{'s', " a , b,,\u00a0c", kindOK, "\x00\x00\x00\x01a\x00\x00\x00\x01b\x00\x00\x00\x00\x00\x00\x00\x01c"},
		{'c', "(?=a)", kindCallError, "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"},
		{'c', `\p{Greek}+`, kindOK, ""},
	} {
		records := exchange(t, s, out, calls(c.fn, c.in))
		if len(records) != 1 || records[0].kind != c.kind || string(records[0].payload) != c.want {
			t.Errorf("%c(%q) = %+v, want kind %d %q", c.fn, c.in, records, c.kind, c.want)
		}
	}
}

func TestMatchStringIsUnanchoredAndReportsCompileErrors(t *testing.T) {
	s, out := newTestServer()
	payload := (&frame{}).u8('E').u32(3).
		u8('r').str("[0-9]").str("abc1").
		u8('r').str(`^\p{Greek}+$`).str("αβx").
		u8('r').str("a{1001}").str("a").b
	records := exchange(t, s, out, payload)
	want := []record{{kindOK, []byte{1}}, {kindOK, []byte{0}},
		{kindCallError, []byte("error parsing regexp: invalid repeat count: `{1001}`")}}
	if len(records) != 3 {
		t.Fatalf("records %+v", records)
	}
	for i := range want {
		if records[i].kind != want[i].kind || !bytes.Equal(records[i].payload, want[i].payload) {
			t.Errorf("call %d: %+v, want %+v", i, records[i], want[i])
		}
	}
}

func TestFormatValueIsFmtV(t *testing.T) {
	s, out := newTestServer()
	f := (&frame{}).u8('E').u32(6)
	f.u8('v').u8('d').u64(math.Float64bits(8080))
	f.u8('v').u8('d').u64(math.Float64bits(1e6))
	f.u8('v').u8('d').u64(math.Float64bits(math.Copysign(0, -1)))
	f.u8('v').u8('i').u64(uint64(1000000))
	f.u8('v').u8('n')
	f.u8('v').u8('m').u32(2).str("b").u8('t').str("a").u8('l').u32(1).u8('s').str("x")
	records := exchange(t, s, out, f.b)
	want := []string{"8080", "1e+06", "-0", "1000000", "<nil>", "map[a:[x] b:true]"}
	for i, w := range want {
		if records[i].kind != kindOK || string(records[i].payload) != w {
			t.Errorf("value %d: %+v, want %q", i, records[i], w)
		}
	}
}

func TestMalformedRequestsGetOneBadRequestRecord(t *testing.T) {
	s, out := newTestServer()
	for name, payload := range map[string][]byte{
		"unknown op":       {'Z'},
		"unknown function": (&frame{}).u8('E').u32(1).u8('?').str("x").b,
		"trailing bytes":   append(calls('t', "x"), 0),
		"short string":     (&frame{}).u8('E').u32(1).u8('t').u32(99).b,
		"huge count":       (&frame{}).u8('E').u32(1 << 30).b,
	} {
		records := exchange(t, s, out, payload)
		if len(records) != 1 || records[0].kind != kindBadRequest ||
			!strings.HasPrefix(string(records[0].payload), "malformed request at byte ") {
			t.Errorf("%s: %+v", name, records)
		}
	}
}

func renderRequest(name, text string) []byte {
	f := (&frame{}).u8('R').u64(1 << 30).u8(0)
	f.u32(1).u8('t').str(text)
	f.u32(1).u8('m').u32(1).str("A").u8('i').u64(7)
	f.u32(1).str(name).u32(0).u32(0)
	return f.b
}

func TestRenderAndErrorsName(t *testing.T) {
	s, out := newTestServer()
	records := exchange(t, s, out, renderRequest("a.txt", "x{{.A}}"))
	if len(records) != 1 || records[0].kind != kindOK || string(records[0].payload) != "x7" {
		t.Fatalf("render: %+v", records)
	}
	records = exchange(t, s, out, renderRequest("b.txt", "{{.B}}"))
	if records[0].kind != kindExecError || !strings.Contains(string(records[0].payload), "template: b.txt:1:2") {
		t.Fatalf("exec error: %+v", records)
	}
}

func TestAnOutputSeenBeforeInTheRequestIsAReferenceBack(t *testing.T) {
	s, out := newTestServer()
	// Texts: 0 renders A (7 or 8 by the data), 1 a long constant, 2 a short one.
	f := (&frame{}).u8('R').u64(1 << 30).u8(0)
	f.u32(3).u8('t').str("value {{.A}}").u8('t').str("a constant output").u8('t').str("abc")
	f.u32(2)
	f.u8('m').u32(1).str("A").u8('i').u64(7)
	f.u8('m').u32(1).str("A").u8('i').u64(8)
	jobs := [][2]uint32{{0, 0}, {1, 0}, {0, 1}, {0, 0}, {2, 0}, {1, 1}, {2, 0}}
	f.u32(uint32(len(jobs)))
	for _, j := range jobs {
		f.str("t").u32(j[0]).u32(j[1])
	}
	back := func(n uint32) string { return string(binary.BigEndian.AppendUint32(nil, n)) }
	want := []record{
		{kindOK, []byte("value 7")},
		{kindOK, []byte("a constant output")},
		{kindOK, []byte("value 8")},
		{kindSame, []byte(back(3))}, // "value 7", three jobs back
		{kindOK, []byte("abc")},     // no longer than a reference: sent as it is
		{kindSame, []byte(back(4))}, // the constant, four jobs back
		{kindOK, []byte("abc")},
	}
	records := exchange(t, s, out, f.b)
	if len(records) != len(want) {
		t.Fatalf("got %d records: %+v", len(records), records)
	}
	for i := range want {
		if records[i].kind != want[i].kind || !bytes.Equal(records[i].payload, want[i].payload) {
			t.Errorf("record %d: got %d %q, want %d %q", i, records[i].kind, records[i].payload, want[i].kind, want[i].payload)
		}
	}
	// A reference never reaches into another request.
	records = exchange(t, s, out, renderRequest("t", "value {{.A}}"))
	if len(records) != 1 || records[0].kind != kindOK || string(records[0].payload) != "value 7" {
		t.Fatalf("next request: %+v", records)
	}
}

func TestTheParseCacheIsBoundedByBytesAndCount(t *testing.T) {
	s, out := newTestServer()
	// Each template's parse tree takes about 11 MB: ten of them pass the budget.
	big := strings.Repeat("key: {{.A}}\n", 1<<15)
	for i := 0; i < 10; i++ {
		records := exchange(t, s, out, renderRequest("big", big+strings.Repeat(" ", i)))
		if records[0].kind != kindOK {
			t.Fatalf("render %d: kind %d", i, records[0].kind)
		}
		if s.cacheBytes > maxCacheBytes || s.cached > 9 {
			t.Fatalf("after %d templates the cache holds %d templates, %d bytes", i+1, s.cached, s.cacheBytes)
		}
	}
	if s.cached == 0 || s.cacheBytes < uint64(len(big)) {
		t.Fatalf("nothing cached: %d templates, %d bytes", s.cached, s.cacheBytes)
	}
	// A template costing more than the whole budget is parsed but not kept.
	s.remember("huge", "text", nil, maxCacheBytes+1)
	if _, kept := s.cache["huge"]; kept {
		t.Fatal("a template over the budget was cached")
	}
	for i := 0; i <= maxCachedTemplates; i++ {
		s.remember("n", strings.Repeat("x", i), nil, 1)
	}
	if s.cached > maxCachedTemplates {
		t.Fatalf("%d templates cached, bound %d", s.cached, maxCachedTemplates)
	}
}

func TestInputClosedSeesAHangupWithoutReading(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checked on Linux only")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if inputClosed(int(r.Fd())) {
		t.Fatal("an open pipe reads as closed")
	}
	w.Write([]byte("pending"))
	if inputClosed(int(r.Fd())) {
		t.Fatal("a pipe with data reads as closed")
	}
	w.Close()
	if !inputClosed(int(r.Fd())) {
		t.Fatal("a closed pipe reads as open")
	}
	if data, _ := io.ReadAll(r); string(data) != "pending" {
		t.Fatalf("the check consumed input: %q left", data)
	}
}

func TestInputReadyOnDataOrHangupOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checked on Linux only")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if inputReady(int(r.Fd())) {
		t.Fatal("an empty open pipe reads as ready")
	}
	w.Write([]byte("x"))
	if !inputReady(int(r.Fd())) {
		t.Fatal("a pipe with data reads as not ready")
	}
	r.Read(make([]byte, 1))
	w.Close()
	if !inputReady(int(r.Fd())) {
		t.Fatal("a closed pipe reads as not ready (a read would see its end at once)")
	}
}

// A helper watching for a next request stops watching as soon as one comes,
// or its input ends (the test's timeout is the hang guard: the watch here
// would last an hour).
func TestAwaitRequestEndsOnInputOrItsEnd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checked on Linux only")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := bufio.NewReader(r)
	w.Write([]byte("request"))
	awaitRequest(in, int(r.Fd()), time.Hour)
	in.ReadByte() // the rest stays buffered: no watch at all
	awaitRequest(in, int(r.Fd()), time.Hour)
	in.Discard(in.Buffered())
	w.Close()
	awaitRequest(in, int(r.Fd()), time.Hour)
}

func TestParsedSizeCountsTextAndActions(t *testing.T) {
	for text, want := range map[string]uint64{
		"":                 0,
		"plain text":       10,
		"{{.A}}":           6 + 250 + 12*6,
		"a{{.A}}b{{.BB}}c": 16 + 2*250 + 12*(6+7),
		"unclosed {{.A":    13 + 250 + 12*6, // to the end, as if closed
	} {
		if got := parsedSize(text); got != want {
			t.Errorf("parsedSize(%q) = %d, want %d", text, got, want)
		}
	}
}

// keptRequest renders text entry e (already framed: 't', 'k' or 'r' and its
// fields) with data {A: 7}, after forgetting every kept text if clear.
func keptRequest(clear bool, e func(*frame)) []byte {
	f := (&frame{}).u8('R').u64(1 << 30)
	if clear {
		f.u8(1)
	} else {
		f.u8(0)
	}
	f.u32(1)
	e(f)
	f.u32(1).u8('m').u32(1).str("A").u8('i').u64(7)
	f.u32(1).str("t").u32(0).u32(0)
	return f.b
}

func TestKeptTextsAreReferredToByIdUntilForgotten(t *testing.T) {
	s, out := newTestServer()
	check := func(what string, payload []byte, kind byte, prefix string) {
		t.Helper()
		records := exchange(t, s, out, payload)
		if len(records) != 1 || records[0].kind != kind || !strings.HasPrefix(string(records[0].payload), prefix) {
			t.Errorf("%s: %d records %+v", what, len(records), records)
		}
	}
	check("keep", keptRequest(false, func(f *frame) { f.u8('k').u32(3).str("kept {{.A}}") }), kindOK, "kept 7")
	check("refer", keptRequest(false, func(f *frame) { f.u8('r').u32(3) }), kindOK, "kept 7")
	check("unknown id", keptRequest(false, func(f *frame) { f.u8('r').u32(4) }), kindBadRequest,
		"malformed request at byte 19: no kept text 4")
	check("forget, then refer", keptRequest(true, func(f *frame) { f.u8('r').u32(3) }), kindBadRequest,
		"malformed request at byte 19: no kept text 3")
	// newTestServer keeps at most 16 texts and 1 MiB.
	for i := uint32(0); i < 16; i++ {
		check("fill", keptRequest(false, func(f *frame) { f.u8('k').u32(i).str("x") }), kindOK, "x")
	}
	check("one too many", keptRequest(false, func(f *frame) { f.u8('k').u32(16).str("x") }), kindBadRequest,
		"malformed request at byte 24: kept texts exceed 16 texts or 1048576 bytes")
	check("too many bytes", keptRequest(true, func(f *frame) { f.u8('k').u32(0).str(strings.Repeat("x", 1<<20+1)) }),
		kindBadRequest, "malformed request at byte 1048600: kept texts exceed")
	if len(s.kept) != 1 || s.keptBytes != 1<<20+1 {
		t.Errorf("after the rejected requests: %d texts, %d bytes", len(s.kept), s.keptBytes)
	}
}

func TestFindAllGivesEachMatchsStartAndFirstGroupInLinearTime(t *testing.T) {
	answer, err := evaluate(call{fn: 'g', args: []string{`(?m)^K=(\w*)|^x`, "é\nK=ab\nx\nK=\n"}})
	if err != nil {
		t.Fatal(err)
	}
	// "é" is two bytes: offsets are UTF-8 bytes. "x" matches without the group: skipped.
	want := []uint32{3, 5, 7, 10, 12, 12}
	for i, n := range want {
		if got := binary.BigEndian.Uint32(answer[4*i:]); got != n {
			t.Fatalf("answer %v, want %v", answer, want)
		}
	}
	if len(answer) != 4*len(want) {
		t.Fatalf("answer %v, want %v", answer, want)
	}
	// Exponential for a backtracking engine (minutes in Python's re); RE2 is
	// linear, so this returns at once rather than never.
	line := "# " + strings.Repeat("a", 43) + "!"
	if answer, err = evaluate(call{fn: 'g', args: []string{`^# (a|aa)+$`, line}}); err != nil || len(answer) != 0 {
		t.Fatalf("answer %v, err %v", answer, err)
	}
}
