// Package wire sets what an agent's log says of each model request beside
// what the recording proxy saw on the wire (engine/proxy): it finds the
// recorded conversation of a log's thread, pairs their requests, and says
// per request which blocks were sent that the log lacks, and which the
// log holds that were not sent (text that differs shows on both sides).
package wire
