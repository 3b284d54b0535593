// Package explore answers what a memory viewer asks of a memory: an
// entity with its relations, their provenance and the experience items
// linked to it; the experience layer's clusters with the routing decision
// behind every member; the conversation's sessions and the times its
// relations carry; and which gold evidence turns a retrieved context
// covers. It returns plain values; package app serves them.
package explore
