// Package pricing prices model calls from a maintained catalog: the data
// of the @pydantic/genai-prices package, vendored into catalog/ by
// scripts/update-prices.sh with its version and the date it was taken, and
// embedded in the binary.
//
// A model is found as the package finds it: the provider by its id or
// name (or, without one, by the model's name), then the first of the
// provider's models whose match rule accepts the model id, trying the id
// again with a compact date suffix (20250929) written with dashes, then
// the provider's fallback providers. A model the catalog does not know has
// no price: [ErrNoPrice] says so, and nothing falls back to a default.
//
// Prices are US dollars per million tokens. Uncached input, cache reads,
// cache writes and output each have their rate; a model without a cache
// rate bills those tokens as input. A tiered rate applies to all of a
// request's tokens of its kind once the request's whole input exceeds the
// tier's start; a rate that changed over time applies from its start date.
package pricing
