package main

// Go calls the Wendy CLI's compose reader makes: how it reads a port number,
// splits a command token again and joins a build context under the project.

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
)

func init() {
	callArgs['p'] = 1
	callArgs['f'] = 1
	callArgs['j'] = 2
}

// evaluateCompose answers the compose calls (handled reports false for any other):
//
//	'p' var n uint16; fmt.Sscanf(s, "%d", &n) -> u16 n (0 when Sscanf fails)
//	'f' strings.Fields(s)                    -> n x (u32 len, field)
//	'j' filepath.Join(a, b)                   -> the text
func evaluateCompose(c call) (answer []byte, handled bool, err error) {
	switch c.fn {
	case 'p':
		var n uint16
		// A failure (no digits, overflow) leaves n as it was: 0, as in the CLI.
		_, _ = fmt.Sscanf(c.args[0], "%d", &n)
		return binary.BigEndian.AppendUint16(nil, n), true, nil
	case 'f':
		var out []byte
		for _, field := range strings.Fields(c.args[0]) {
			out = binary.BigEndian.AppendUint32(out, uint32(len(field)))
			out = append(out, field...)
		}
		return out, true, nil
	case 'j':
		return []byte(filepath.Join(c.args[0], c.args[1])), true, nil
	}
	return nil, false, nil
}
