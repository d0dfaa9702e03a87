package main

import (
	"encoding/binary"
	"testing"
)

func TestComposeCallsAreTheCLIsGoFunctions(t *testing.T) {
	for _, c := range []struct {
		fn   byte
		args []string
		want string
	}{
		// fmt.Sscanf("%d") into a uint16: a leading number, no sign, overflow is 0.
		{'p', []string{"127.0.0.1"}, "\x00\x7f"},
		{'p', []string{"53/udp"}, "\x00\x35"},
		{'p', []string{" 80"}, "\x00\x50"},
		{'p', []string{"70000"}, "\x00\x00"},
		{'p', []string{"+83"}, "\x00\x00"},
		{'p', []string{"web"}, "\x00\x00"},
		{'f', []string{" python  -u\t"}, "\x00\x00\x00\x06python\x00\x00\x00\x02-u"},
		{'f', []string{"\u00a0"}, ""},
		{'j', []string{"proj", "/srv/app"}, "proj/srv/app"},
		{'j', []string{"proj", ""}, "proj"},
		{'j', []string{"proj", "../x"}, "x"},
	} {
		answer, handled, err := evaluateCompose(call{fn: c.fn, args: c.args})
		if !handled || err != nil || string(answer) != c.want {
			t.Errorf("%c%q = %q, %v, %v; want %q", c.fn, c.args, answer, handled, err, c.want)
		}
	}
	if _, handled, _ := evaluateCompose(call{fn: 'a', args: []string{"1"}}); handled {
		t.Error("evaluateCompose answered an Atoi call")
	}
	// The calls are reachable through evaluate, with their argument counts declared.
	answer, err := evaluate(call{fn: 'p', args: []string{"8080:80"}})
	if err != nil || binary.BigEndian.Uint16(answer) != 8080 || callArgs['j'] != 2 {
		t.Errorf("evaluate p = %v, %v; callArgs j = %d", answer, err, callArgs['j'])
	}
}
