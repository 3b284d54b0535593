package proxy

import (
	"net/url"
	"strings"
)

// API names the wire API of a model request.
type API string

// The APIs the proxy records.
const (
	APIAnthropic API = "anthropic-messages"
	APIChat      API = "openai-chat"
	APIResponses API = "openai-responses"
	APIGemini    API = "gemini"
)

// Provider names the upstream family an API belongs to.
type Provider string

// Providers and their default upstreams.
const (
	ProviderAnthropic Provider = "anthropic"
	ProviderOpenAI    Provider = "openai"
	ProviderGemini    Provider = "gemini"
)

// DefaultUpstreams are the providers' own endpoints.
var DefaultUpstreams = map[Provider]string{
	ProviderAnthropic: "https://api.anthropic.com",
	ProviderOpenAI:    "https://api.openai.com",
	ProviderGemini:    "https://generativelanguage.googleapis.com",
}

// Provider returns the upstream family of a.
func (a API) Provider() Provider {
	switch a {
	case APIAnthropic:
		return ProviderAnthropic
	case APIGemini:
		return ProviderGemini
	}
	return ProviderOpenAI
}

// Classify returns the API of a request by its method and path, and
// whether it is a model call (other requests, such as model listings or
// token counts, are forwarded without a record).
func Classify(method, path string) (API, bool) {
	if method != "POST" {
		return "", false
	}
	switch {
	case strings.HasSuffix(path, "/messages"):
		return APIAnthropic, true
	case strings.HasSuffix(path, "/chat/completions"):
		return APIChat, true
	case strings.HasSuffix(path, "/responses"):
		return APIResponses, true
	case strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent"):
		return APIGemini, true
	}
	return "", false
}

// providerOf guesses the upstream family of a request that is no model
// call, by its path, so that it reaches the same provider as the calls.
func providerOf(path string) Provider {
	switch {
	case strings.Contains(path, "/v1beta/") || strings.Contains(path, "/v1alpha/") || strings.Contains(path, ":countTokens"):
		return ProviderGemini
	case strings.HasSuffix(path, "/messages/count_tokens") || strings.Contains(path, "/v1/messages"):
		return ProviderAnthropic
	}
	return ProviderOpenAI
}

// ParseUpstreams reads upstream settings: "URL" for every provider, or
// "anthropic=URL", "openai=URL", "gemini=URL" for one. Providers not set
// keep their defaults.
func ParseUpstreams(specs []string) (map[Provider]*url.URL, error) {
	out := map[Provider]*url.URL{}
	for p, raw := range DefaultUpstreams {
		u, _ := url.Parse(raw)
		out[p] = u
	}
	for _, spec := range specs {
		name, raw, named := strings.Cut(spec, "=")
		if !named || strings.Contains(name, "/") {
			name, raw = "", spec
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &UpstreamError{Spec: spec}
		}
		u.Path = strings.TrimSuffix(u.Path, "/")
		switch p := Provider(name); p {
		case "":
			for k := range out {
				out[k] = u
			}
		case ProviderAnthropic, ProviderOpenAI, ProviderGemini:
			out[p] = u
		default:
			return nil, &UpstreamError{Spec: spec}
		}
	}
	return out, nil
}

// UpstreamError is an upstream setting that names no http(s) URL or no
// known provider.
type UpstreamError struct{ Spec string }

func (e *UpstreamError) Error() string {
	return "upstream " + e.Spec + ": want URL or PROVIDER=URL with PROVIDER anthropic, openai or gemini and an http(s) URL"
}
