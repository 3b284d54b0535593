// Package openai imports conversations in the OpenAI chat-completions
// message format: a JSON array of messages, an object {"messages": [...]}
// (the fine-tuning shape), JSON Lines of either, and tau-bench result
// files (an array of runs {task_id, reward, info, traj, trial}). Each
// conversation is a session of its own.
//
// Files are streamed value by value and messages one at a time, so memory
// is bounded by the largest message, not the file. Assistant tool_calls
// become tool-call blocks whose arguments are the JSON the arguments string
// holds; tool (and legacy function) messages become tool results.
package openai
