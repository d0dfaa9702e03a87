package main

// The 'E' request: Go standard-library calls the Wendy CLI's value rules make.

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// call is one Go function call of an 'E' request.
type call struct {
	fn    byte
	args  []string    // the string arguments
	value interface{} // 'v' only
}

// Arguments of each function of an 'E' request (see evaluate).
var callArgs = map[byte]int{'a': 1, 'b': 1, 'q': 1, 't': 1, 's': 1, 'c': 1, 'r': 2, 'g': 2, 'v': 0}

// The functions whose string arguments are followed by a tagged value.
var callTakesValue = map[byte]bool{'v': true}

func decodeCalls(r *reader) []call {
	calls := make([]call, r.count(2))
	for i := range calls {
		c := &calls[i]
		c.fn = r.u8()
		n, known := callArgs[c.fn]
		if !known {
			r.fail("unknown function %q", c.fn)
		}
		for ; n > 0; n-- {
			c.args = append(c.args, string(r.blob()))
		}
		if callTakesValue[c.fn] {
			c.value = r.value(0)
		}
	}
	return calls
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
//	'g' every match of regexp.Compile(pattern) in s (FindAllStringSubmatchIndex):
//	    its first group, else the whole match -> n x (u32 match start,
//	    u32 value start, u32 value end); a group that took no part is skipped
//	'm' a render and its source map (sourcemap.go)
//
// A Go error (Atoi's, ParseBool's, a regexp's compile error) is the answer's
// kindCallError payload.
func evaluate(c call) ([]byte, error) {
	if answer, handled, err := evaluateCompose(c); handled { // compose_calls.go
		return answer, err
	}
	if c.fn == 'm' {
		return evaluateSourceMap(c) // sourcemap.go
	}
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
	case 'g':
		return findAll(c.args[0], c.args[1])
	default: // 'r'
		matched, err := regexp.MatchString(c.args[0], c.args[1])
		return flag(matched), err
	}
}

// findAll answers 'g': Go's regexp runs in time linear in the text (RE2), so a
// pattern from a pull request's rules file cannot stall the gate.
func findAll(pattern, s string) ([]byte, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	group := 0
	if re.NumSubexp() > 0 {
		group = 1
	}
	var out []byte
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[2*group], m[2*group+1]
		if start < 0 {
			continue
		}
		out = binary.BigEndian.AppendUint32(out, uint32(m[0]))
		out = binary.BigEndian.AppendUint32(out, uint32(start))
		out = binary.BigEndian.AppendUint32(out, uint32(end))
	}
	return out, nil
}

func flag(b bool) []byte {
	if b {
		return []byte{1}
	}
	return []byte{0}
}
