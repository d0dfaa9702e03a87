package main

// wendy.json decoded by Go's encoding/json, as the Wendy CLI decodes it: the
// cases of testdata/wendy_json_decode.json, which wendy_llm's own decoder must
// also pass (tests/wendycli/test_wendy_json_decode_cases.py). The struct has the CLI's
// documented fields (section 2 of the facts, docs/device-paths.md) that the
// cases use.

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

type wjPort struct {
	Host      uint16 `json:"host"`
	Container uint16 `json:"container"`
}

type wjEntitlement struct {
	Type  string   `json:"type"`
	Mode  string   `json:"mode"`
	Ports []wjPort `json:"ports"`
}

type wjTCPSocket struct {
	Port int `json:"port"`
}

type wjReadiness struct {
	TCPSocket      *wjTCPSocket `json:"tcpSocket"`
	TimeoutSeconds int          `json:"timeoutSeconds"`
}

type wjService struct {
	Context      string          `json:"context"`
	Entitlements []wjEntitlement `json:"entitlements"`
	DependsOn    []string        `json:"dependsOn"`
}

type wjAppConfig struct {
	AppID        string                `json:"appId"`
	Entitlements []wjEntitlement       `json:"entitlements"`
	Readiness    *wjReadiness          `json:"readiness"`
	Services     map[string]*wjService `json:"services"`
}

type wjCase struct {
	Fact    string      `json:"fact"`
	Input   string      `json:"input"`
	Decoded interface{} `json:"decoded"`
	Error   []string    `json:"error"`
}

// holds reports whether every field of want is in got with the same value.
func holds(got, want interface{}) bool {
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return false
		}
		for key, value := range w {
			if !holds(g[key], value) {
				return false
			}
		}
		return true
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !holds(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

func TestWendyJSONDecodesAsTheCasesSay(t *testing.T) {
	data, err := os.ReadFile("testdata/wendy_json_decode.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []wjCase }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, c := range file.Cases {
		var config wjAppConfig
		err := json.Unmarshal([]byte(c.Input), &config)
		if c.Error != nil {
			for _, text := range c.Error {
				if err == nil || !strings.Contains(err.Error(), text) {
					t.Errorf("%s: error %v does not hold %q", c.Fact, err, text)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Fact, err)
			continue
		}
		encoded, _ := json.Marshal(config)
		var got interface{}
		_ = json.Unmarshal(encoded, &got)
		if !holds(got, c.Decoded) {
			t.Errorf("%s: decoded %s", c.Fact, encoded)
		}
	}
}
