// Package realagents holds the tests that run real coding agents, each
// installed from npm at the version scripts/agents.txt pins, against a
// model server of the tests' own (engine/modeltest) that keeps every
// request body, and compare what ctxscope reads from each agent's own log
// with what the model received. `make test-agents` runs them alone.
package realagents
