package main

import (
	"encoding/binary"
	"testing"
)

type span struct {
	start, end int
	kind       byte
	offset     int
}

func decodeSourceMap(t *testing.T, answer []byte) (string, []span) {
	t.Helper()
	n := int(binary.BigEndian.Uint32(answer))
	out := string(answer[4 : 4+n])
	rest := answer[4+n:]
	count := int(binary.BigEndian.Uint32(rest))
	rest = rest[4:]
	spans := make([]span, count)
	for i := range spans {
		spans[i] = span{
			int(binary.BigEndian.Uint32(rest)), int(binary.BigEndian.Uint32(rest[4:])),
			rest[8], int(binary.BigEndian.Uint32(rest[9:])),
		}
		rest = rest[13:]
	}
	return out, spans
}

func TestSourceMapNamesTheNodeOfEveryOutputByte(t *testing.T) {
	text := "a: {{.X}}\n{{- if .Y}}\nb: 1\n{{- end}}\n{{range .L}}- {{.}}\n{{end}}"
	data := map[string]interface{}{"X": "x", "Y": true, "L": []interface{}{"p", "q"}}
	answer, err := evaluate(call{fn: 'm', args: []string{"f", text, "1000"}, value: data})
	if err != nil {
		t.Fatal(err)
	}
	out, spans := decodeSourceMap(t, answer)
	if out != "a: x\nb: 1\n- p\n- q\n" {
		t.Fatalf("output %q", out)
	}
	covered := 0
	for _, s := range spans {
		if s.start != covered {
			t.Fatalf("span %v leaves a gap after %d", s, covered)
		}
		covered = s.end
		if s.kind == spanText && out[s.start:s.end] != text[s.offset:s.offset+s.end-s.start] {
			t.Errorf("text span %v: %q is not the source's %q", s, out[s.start:s.end], text[s.offset:])
		}
	}
	if covered != len(out) {
		t.Fatalf("spans cover %d of %d bytes", covered, len(out))
	}
	// "x" came from the action {{.X}}, whose position is after "a: {{".
	if spans[1].kind != spanAction || text[spans[1].offset:spans[1].offset+2] != ".X" {
		t.Errorf("the action's span: %v", spans[1])
	}
}

func TestSourceMapFailsAsTheRenderFails(t *testing.T) {
	_, err := evaluate(call{fn: 'm', args: []string{"f", "{{.Missing}}", "10"}, value: map[string]interface{}{}})
	if err == nil {
		t.Fatal("a missing key must fail the map as it fails the render")
	}
}
