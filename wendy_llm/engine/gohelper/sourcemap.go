package main

// The 'm' call: a render and, for each byte range of its output, the node
// of the template that wrote it, so a finding at a rendered line can be
// reported at the template source line (wendy_llm/engine/sourcemap.py).
//
// How: the parse tree is copied, and before every node of every list (the
// top level, the bodies of if, range, with, define) a text node holding a
// marker is inserted: NUL, a random nonce, the node's index, NUL.  The copy
// is executed with the same data; whatever follows a marker up to the next
// one was written by that node (a text node writes its text, an action its
// value; if, range and with write nothing themselves, their bodies carry
// their own markers).  The markers are then cut out, and the result must
// equal the plain render byte for byte, or the call fails: the map is
// exact or not given.

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"text/template"
	"text/template/parse"
)

func init() {
	callArgs['m'] = 3 // name, text, max output bytes (decimal); then the data map
	callTakesValue['m'] = true
}

// Span kinds of the answer.
const (
	spanText   = 't' // a text node: output byte k is source byte offset+k
	spanAction = 'a' // an action: written by the action at source offset
	spanMoved  = 'c' // a text node whose text is not where its position says (never seen)
)

// markedNode is what a marker stands for: the node's kind and source offset.
type markedNode struct {
	kind   byte
	offset int
}

// evaluateSourceMap answers 'm' (name, text, max output, data):
//
//	u32 len, the output; u32 n, n x (u32 start, u32 end, u8 kind, u32 source offset)
//
// spans in output order, covering every output byte. An execution error is
// the call's error, as in a render.
func evaluateSourceMap(c call) ([]byte, error) {
	name, text := c.args[0], c.args[1]
	maxOutput, err := strconv.ParseUint(c.args[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("max output: %v", err)
	}
	data, ok := c.value.(map[string]interface{})
	if !ok {
		return nil, errors.New("the data is not a map")
	}
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	plain, err := executeLimited(t, data, maxOutput)
	if err != nil {
		return nil, err
	}
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	prefix := "\x00" + hex.EncodeToString(nonce[:]) + ":"
	marked, nodes, err := markedCopy(t, name, text, prefix)
	if err != nil {
		return nil, err
	}
	// Markers of nodes that write nothing (an empty range body) can outgrow
	// the output many times over: bounded, past that no map is given.
	out, err := executeLimited(marked, data, 8*maxOutput+1<<20)
	if err != nil {
		return nil, err
	}
	return encodeSpans(plain, out, []byte(prefix), nodes)
}

func executeLimited(t *template.Template, data map[string]interface{}, max uint64) ([]byte, error) {
	var buf bytes.Buffer
	if err := t.Execute(&limitWriter{&buf, max}, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// markedCopy returns a copy of t's template set with a marker before every node.
func markedCopy(t *template.Template, name, text, prefix string) (*template.Template, []markedNode, error) {
	marked := template.New(name).Option("missingkey=error")
	var nodes []markedNode
	for _, sub := range t.Templates() {
		if sub.Tree == nil || sub.Tree.Root == nil {
			continue
		}
		tree := sub.Tree.Copy()
		nodes = mark(tree.Root, text, prefix, nodes)
		if _, err := marked.AddParseTree(sub.Name(), tree); err != nil {
			return nil, nil, err
		}
	}
	return marked.Lookup(name), nodes, nil
}

// mark inserts a marker before each node of list, and of the lists inside it.
func mark(list *parse.ListNode, text, prefix string, nodes []markedNode) []markedNode {
	if list == nil {
		return nodes
	}
	withMarkers := make([]parse.Node, 0, 2*len(list.Nodes))
	for _, node := range list.Nodes {
		pos := int(node.Position())
		kind := byte(spanAction)
		if textNode, isText := node.(*parse.TextNode); isText {
			kind = spanText
			end := pos + len(textNode.Text)
			if pos < 0 || end > len(text) || text[pos:end] != string(textNode.Text) {
				kind = spanMoved
			}
		}
		marker := prefix + strconv.Itoa(len(nodes)) + "\x00"
		nodes = append(nodes, markedNode{kind, pos})
		withMarkers = append(withMarkers,
			&parse.TextNode{NodeType: parse.NodeText, Pos: node.Position(), Text: []byte(marker)}, node)
		switch n := node.(type) {
		case *parse.IfNode:
			nodes = mark(n.List, text, prefix, mark(n.ElseList, text, prefix, nodes))
		case *parse.RangeNode:
			nodes = mark(n.List, text, prefix, mark(n.ElseList, text, prefix, nodes))
		case *parse.WithNode:
			nodes = mark(n.List, text, prefix, mark(n.ElseList, text, prefix, nodes))
		}
	}
	list.Nodes = withMarkers
	return nodes
}

// encodeSpans cuts the markers out of out, checks the rest is plain, and
// encodes the answer.
func encodeSpans(plain, out, prefix []byte, nodes []markedNode) ([]byte, error) {
	answer := binary.BigEndian.AppendUint32(nil, uint32(len(plain)))
	answer = append(answer, plain...)
	countAt := len(answer)
	answer = append(answer, 0, 0, 0, 0)
	spans, written := 0, 0
	current := -1
	for len(out) > 0 {
		next := bytes.Index(out, prefix)
		if next < 0 {
			next = len(out)
		}
		if next > 0 {
			if current < 0 || written+next > len(plain) || !bytes.Equal(out[:next], plain[written:written+next]) {
				return nil, errors.New("source map: the marked render differs from the render")
			}
			node := nodes[current]
			answer = binary.BigEndian.AppendUint32(answer, uint32(written))
			answer = binary.BigEndian.AppendUint32(answer, uint32(written+next))
			answer = append(answer, node.kind)
			answer = binary.BigEndian.AppendUint32(answer, uint32(node.offset))
			spans++
			written += next
		}
		out = out[next:]
		if len(out) == 0 {
			break
		}
		end := bytes.IndexByte(out[len(prefix):], 0)
		if end < 0 {
			return nil, errors.New("source map: a marker is cut short")
		}
		id, err := strconv.Atoi(string(out[len(prefix) : len(prefix)+end]))
		if err != nil || id < 0 || id >= len(nodes) {
			return nil, errors.New("source map: a marker is malformed")
		}
		current = id
		out = out[len(prefix)+end+1:]
	}
	if written != len(plain) {
		return nil, errors.New("source map: the marked render is shorter than the render")
	}
	binary.BigEndian.PutUint32(answer[countAt:], uint32(spans))
	return answer, nil
}
