package main

// Rendering: the parse cache, bounded by count and memory, and execution.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"strings"
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

// parsedSize estimates the memory a parsed template holds: its text, 250
// bytes per action and 12 per byte of action text. Measured with Go 1.24,
// this is 0.9 to 1.7 times the real size for fields, ifs, ranges, printf
// pipelines and compose files, in a thirtieth of a parse's time. (Reading
// the allocator's counters instead cost each helper start ~0.1 ms, and they
// count whole spans.)
func parsedSize(text string) uint64 {
	size := uint64(len(text))
	for rest := text; ; {
		start := strings.Index(rest, "{{")
		if start < 0 {
			return size
		}
		rest = rest[start:]
		end := strings.Index(rest, "}}")
		if end < 0 {
			end = len(rest)
		}
		size += 250 + 12*uint64(end+2)
		rest = rest[min(end+2, len(rest)):]
	}
}

// parse returns the template for (name, text), parsing it only on a cache miss.
func (s *server) parse(name string, text string) (*template.Template, error) {
	if t, ok := s.cache[name][text]; ok {
		return t, nil
	}
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	s.remember(name, text, t, parsedSize(text))
	return t, nil
}

// remember caches a parsed template that cost `cost` bytes to build,
// clearing the cache first when it would outgrow its bounds.
func (s *server) remember(name, text string, t *template.Template, cost uint64) {
	// A large parse leaves as much garbage again (the lexer's items).
	s.freeMemory = s.freeMemory || cost >= largeBytes
	if cost > s.maxCacheBytes {
		return
	}
	if s.cached >= s.maxCached || s.cacheBytes+cost > s.maxCacheBytes {
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
	s.limit = limitWriter{&s.buf, maxOutput} // the server's: no allocation per render
	err := t.Execute(&s.limit, data)
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

// sameOutputs remembers the outputs of one request's renders, so that an
// output equal to an earlier one is answered by a reference back to it: the
// lints render every pick, and most files come out the same for most picks
// (two thirds of the bytes of the bundled template's lint batch).
// Outputs no longer than a reference are not remembered, nor any once
// largeBytes are held. The outputs are copied back to back into one arena
// and found by their hash, then compared byte for byte: a string key per
// output cost each render of a batch an allocation and the collector's work.
// The server keeps one, emptied for each request (its memory reused).
type sameOutputs struct {
	seed  maphash.Seed
	arena []byte
	seen  map[uint64]seenOutput // hash -> the first output with that hash
}

type seenOutput struct{ start, end, job int }

func newSameOutputs() *sameOutputs {
	return &sameOutputs{seed: maphash.MakeSeed(), seen: make(map[uint64]seenOutput)}
}

// reset forgets the last request's outputs, dropping an arena that grew large.
func (o *sameOutputs) reset() {
	clear(o.seen)
	o.arena = o.arena[:0]
	if cap(o.arena) > largeBytes {
		o.arena = nil
	}
}

// earlier returns how many jobs back the same output was produced, if it was,
// and remembers this one if more jobs follow (a single render's output is
// neither looked up nor copied).
func (o *sameOutputs) earlier(out []byte, job int, more bool) (int, bool) {
	if len(o.seen) == 0 && !more {
		return 0, false
	}
	hash := maphash.Bytes(o.seed, out)
	s, found := o.seen[hash]
	if found && bytes.Equal(o.arena[s.start:s.end], out) {
		return job - s.job, true
	}
	// Another output with the same hash (a 2^-64 chance) is not remembered.
	if !found && more && len(out) > 4 && len(o.arena)+len(out) <= largeBytes {
		start := len(o.arena)
		o.arena = append(o.arena, out...)
		o.seen[hash] = seenOutput{start, len(o.arena), job}
	}
	return 0, false
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
