package main

// Rendering: the parse cache, bounded by count and memory, and execution.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime/metrics"
	"text/template"
	"time"
)

var errTooLarge = errors.New("output too large")

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
