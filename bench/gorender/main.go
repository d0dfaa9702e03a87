// Command gorender renders a Wendy template directory the way the Wendy CLI's
// own Go code does, for `make bench` to compare wendy-llm's command line with:
// walk the template (filepath.WalkDir order), skip what is not a regular file
// and the root's manifests, render the files the rules name with
// text/template (missingkey=error, named by their relative path), copy the
// rest, rename path components equal to the template's name to the app id,
// and write the tree (files 0644, directories 0755).
//
// Usage: gorender CONFIG.json TEMPLATE_DIR OUT_DIR. The config carries what
// wendy-llm computed once in Python, so both sides use one definition: the
// file rules (bench/bench_cli.py takes them from wendy_llm/render/tree.py),
// the template's name, the app id and the data map. Numbers without a '.'
// or exponent are Go ints, the others float64, as wendy-llm sends them.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"
)

type config struct {
	RenderedExtensions []string        `json:"rendered_extensions"`
	RenderedBasenames  []string        `json:"rendered_basenames"`
	ManifestFiles      []string        `json:"manifest_files"`
	TemplateName       string          `json:"template_name"`
	AppID              string          `json:"app_id"`
	Data               json.RawMessage `json:"data"`
}

func typed(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			f, _ := x.Float64()
			return f
		}
		i, _ := x.Int64()
		return int(i)
	case []interface{}:
		for i := range x {
			x[i] = typed(x[i])
		}
	case map[string]interface{}:
		for k := range x {
			x[k] = typed(x[k])
		}
	}
	return v
}

func set(items []string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

func run(configPath, root, out string) error {
	raw, err := os.ReadFile(configPath)
	if err != nil {
		return err
	}
	var cfg config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(cfg.Data))
	dec.UseNumber()
	var data map[string]interface{}
	if err := dec.Decode(&data); err != nil {
		return err
	}
	typed(data)
	exts, bases, manifests := set(cfg.RenderedExtensions), set(cfg.RenderedBasenames), set(cfg.ManifestFiles)
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if manifests[rel] {
			return nil
		}
		parts := strings.Split(rel, "/")
		for i, part := range parts {
			if part == cfg.TemplateName {
				parts[i] = cfg.AppID
			}
		}
		target := filepath.Join(out, filepath.FromSlash(path.Clean(strings.Join(parts, "/"))))
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		base := path.Base(rel)
		if exts[strings.ToLower(path.Ext(base))] || bases[base] {
			t, err := template.New(rel).Option("missingkey=error").Parse(string(content))
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := t.Execute(&buf, data); err != nil {
				return err
			}
			content = buf.Bytes()
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, content, 0o644)
	})
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gorender CONFIG.json TEMPLATE_DIR OUT_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "gorender:", err)
		os.Exit(1)
	}
}
