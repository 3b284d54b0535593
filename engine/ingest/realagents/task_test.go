package realagents

import "ctxscope/engine/modeltest"

// The markers of the scripted conversations: the prompt the agent is given
// holds mainMarker, the subagent's prompt subMarker.
const (
	mainMarker = "CTXSCOPE-MAIN-TASK"
	subMarker  = "CTXSCOPE-SUBTASK"
)

// project is the work directory the agents start in: a shell adder with a
// bug, a test that fails until it is fixed, and notes.
var project = map[string]string{
	"notes.md":  "# notes\nThe adder lives in calc.sh; `sh test.sh` tests it.\n",
	"calc.sh":   "add() {\n  echo $(( $1 - $2 ))\n}\n",
	"test.sh":   ". ./calc.sh\nif [ \"$(add 2 3)\" = 5 ]; then echo PASS; else echo \"FAIL: add 2 3 gave $(add 2 3)\"; exit 1; fi\n",
	"README.md": "A tiny project for ctxscope's real-agent tests.\n",
}

// codingTask is the scripted task: 20 tool calls of the main conversation
// (reads repeated, the test run failing, an edit, the test passing) and,
// when subagent is true, a subagent of 3 calls among them.
func codingTask(workdir string, subagent bool) modeltest.Script {
	return codingTaskWith(workdir, subagent, "")
}

// codingTaskWith is codingTask asking for a subagent of agentType, for an
// agent whose subagents have their own names.
func codingTaskWith(workdir string, subagent bool, agentType string) modeltest.Script {
	read := func(p string) modeltest.Action { return modeltest.Action{Kind: modeltest.Read, Path: p} }
	bash := func(c string) modeltest.Action { return modeltest.Action{Kind: modeltest.Bash, Command: c} }
	steps := []modeltest.Step{
		{Say: "I will read the notes first.", Calls: []modeltest.Action{read("notes.md")}},
		{Calls: []modeltest.Action{read("calc.sh")}},
		{Calls: []modeltest.Action{read("test.sh")}},
		{Say: "Running the test.", Calls: []modeltest.Action{bash("sh test.sh")}},
		{Calls: []modeltest.Action{read("calc.sh")}},
		{Say: "The adder subtracts; fixing it.", Calls: []modeltest.Action{{Kind: modeltest.Edit, Path: "calc.sh", Old: "  echo $(( $1 - $2 ))", New: "  echo $(( $1 + $2 ))"}}},
		{Calls: []modeltest.Action{bash("sh test.sh")}},
		{Calls: []modeltest.Action{bash("ls -la")}},
		{Calls: []modeltest.Action{read("notes.md")}},
		{Calls: []modeltest.Action{{Kind: modeltest.Write, Path: "CHANGES.md", Content: "- add() adds instead of subtracting\n"}}},
		{Calls: []modeltest.Action{read("CHANGES.md")}},
		{Calls: []modeltest.Action{bash("cat calc.sh")}},
		{Calls: []modeltest.Action{read("README.md")}},
		{Calls: []modeltest.Action{bash("grep -n add calc.sh test.sh")}},
		{Calls: []modeltest.Action{read("calc.sh")}},
		{Calls: []modeltest.Action{bash("sh test.sh")}},
		{Calls: []modeltest.Action{bash("wc -l calc.sh test.sh notes.md")}},
		{Calls: []modeltest.Action{read("test.sh")}},
		{Say: "Two reads at once.", Calls: []modeltest.Action{read("notes.md"), read("README.md")}},
	}
	tasks := []modeltest.Task{{Marker: mainMarker, Steps: steps, Final: "The adder is fixed and the test passes."}}
	if subagent {
		steps = append(steps[:12:12], append([]modeltest.Step{{Say: "Asking a subagent to check.",
			Calls: []modeltest.Action{{Kind: modeltest.Subagent, AgentType: agentType, Prompt: subMarker + ": check that the test passes and say what calc.sh does."}}}}, steps[12:]...)...)
		tasks[0].Steps = steps[:len(steps)-1] // 20 calls with the subagent's
		tasks = append(tasks, modeltest.Task{Marker: subMarker, Steps: []modeltest.Step{
			{Calls: []modeltest.Action{read("calc.sh")}},
			{Calls: []modeltest.Action{bash("sh test.sh")}},
			{Calls: []modeltest.Action{read("test.sh")}},
		}, Final: "The test passes; calc.sh defines add, which adds its two arguments."})
	}
	return modeltest.Script{Workdir: workdir, Tasks: tasks}
}

// prompt is what the agent is asked.
const prompt = mainMarker + ": the test of this project fails. Find out why, fix it, and check."
