package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

// BenchmarkHandleSingleRender is the helper's share of a single render
// (decode, execute, answer), on the bench's template and data map
// (bench/bench_engine.py); compare with BenchmarkExecuteOnly, the execution alone.
func BenchmarkHandleSingleRender(b *testing.B) {
	s, payload := benchRequest(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.handle(payload)
	}
}

// BenchmarkHandleBatch64 is one chunk of a batched render (options.py's
// RENDER_BATCH_JOBS jobs, each with its own data map); ns/op is per chunk.
func BenchmarkHandleBatch64(b *testing.B) {
	s, _ := benchRequest(b)
	f := &frame{}
	f.u8('R').u64(1 << 20).u8(0).u32(1).u8('r').u32(1).u32(64)
	for i := 0; i < 64; i++ {
		f.u8('m').u32(3)
		f.str("APP_ID").u8('s').str(fmt.Sprintf("app-%d", i))
		f.str("PORT").u8('d').u64(math.Float64bits(8080))
		f.str("OLLAMA_MODEL").u8('s').str("gemma4:e2b")
	}
	f.u32(64)
	for i := 0; i < 64; i++ {
		f.str("docker-compose.yml").u32(0).u32(uint32(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.handle(f.b)
	}
}

func BenchmarkExecuteOnly(b *testing.B) {
	s, payload := benchRequest(b)
	req := s.decodeRequest(payload)
	t, err := s.parse(req.jobs[0].name, req.texts[0])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.execute(t, req.data[0], 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

func benchRequest(b *testing.B) (*server, []byte) {
	text, err := os.ReadFile("../../../templates/python/llm/docker-compose.yml")
	if err != nil {
		b.Skip("the bench template is not here:", err)
	}
	s := newServer(io.Discard, limits{maxCachedTemplates, maxCacheBytes, 16, 1 << 20})
	s.handle(keptRequest(false, func(f *frame) { f.u8('k').u32(1).str(string(text)) }))
	f := &frame{}
	f.u8('R').u64(1 << 20).u8(0).u32(1).u8('r').u32(1)
	f.u32(1).u8('m').u32(3)
	f.str("APP_ID").u8('s').str("app-0")
	f.str("PORT").u8('d').u64(math.Float64bits(8080))
	f.str("OLLAMA_MODEL").u8('s').str("gemma4:e2b")
	f.u32(1).str("docker-compose.yml").u32(0).u32(0)
	return s, f.b
}

// The server reuses its data maps between requests: a key of the last
// request's data must not be seen by the next one (missingkey=error).
func TestReusedDataMapsHoldOnlyThisRequestsKeys(t *testing.T) {
	s, out := newTestServer()
	request := func(keys ...string) []byte {
		f := (&frame{}).u8('R').u64(1 << 20).u8(0).u32(1).u8('t').str("{{.A}}{{.B}}")
		f.u32(1).u8('m').u32(uint32(len(keys)))
		for _, k := range keys {
			f.str(k).u8('s').str(k)
		}
		f.u32(1).str("t").u32(0).u32(0)
		return f.b
	}
	if got := exchange(t, s, out, request("A", "B")); got[0].kind != kindOK || string(got[0].payload) != "AB" {
		t.Fatalf("first request: %d %q", got[0].kind, got[0].payload)
	}
	got := exchange(t, s, out, request("A"))
	if got[0].kind != kindExecError || !strings.Contains(string(got[0].payload), `map has no entry for key "B"`) {
		t.Fatalf("second request saw the first one's data: %d %q", got[0].kind, got[0].payload)
	}
}
