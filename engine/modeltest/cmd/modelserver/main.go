// Command modelserver runs the tests' model server (engine/modeltest) on
// a loopback port, for tests outside Go (the browser tests run a real
// agent through ctxscope's proxy to it). It plays two scripted tasks,
// each answer after -delay: the one whose prompt holds the marker
// CTXSCOPE-E2E-TASK is five reads of notes.md and a final answer; the one
// whose prompt holds CTXSCOPE-E2E-EVICT is four rounds of exploring and
// changing (two reads, a test run, an edit, each round announced), long
// enough for live eviction at a few thousand tokens. It prints its URL on
// the first line and serves until killed.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"ctxscope/engine/modeltest"
)

func main() {
	workdir := flag.String("workdir", ".", "the directory the agent works in (for tools that want absolute paths)")
	delay := flag.Duration("delay", 0, "how long to wait before each answer")
	flag.Parse()
	read := modeltest.Step{Calls: []modeltest.Action{{Kind: modeltest.Read, Path: "notes.md"}}}
	srv := modeltest.Start(modeltest.Script{Workdir: *workdir, Delay: *delay, Tasks: []modeltest.Task{
		{Marker: "CTXSCOPE-E2E-TASK", Steps: []modeltest.Step{read, read, read, read, read}, Final: "The notes say where the adder lives."},
		{Marker: "CTXSCOPE-E2E-EVICT", Steps: modeltest.Rounds(4), Final: "Done."},
	}})
	defer srv.Close()
	fmt.Println(srv.URL)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}
