package app

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrForbidden is returned by [App.Invoke] for a call that the caller's
// role may not make. Serve answers it with 403.
var ErrForbidden = errors.New("forbidden")

// access says who may call a bound method through [App.Invoke], that is
// in serve mode. The desktop window calls its services directly and is
// its user's own: it is not subject to this table.
type access int

const (
	// forMembers: every signed-in caller, members and operators. What a
	// member may do: read, search, replay, annotate as themselves, and
	// build memory with the offline extractor from the workspace's own
	// sessions.
	forMembers access = iota + 1
	// forOperators: the server's operator only (the per-launch token, or
	// a user token made with --role operator). These touch the server
	// itself: its disk, its settings, its LLM endpoint and key, its
	// agents' folders, and data that other members share.
	forOperators
	// forDesktop: nobody in serve mode. A native dialog, a file saved on
	// the server's disk, or an annotator name chosen by the caller belong
	// to the desktop window only.
	forDesktop
)

// rule is one bound method's entry in [accessTable]: who may call it, and
// for members, an optional check of the arguments (a member may call
// Memory.Build, but not with the LLM extractor or a path on the server).
type rule struct {
	who         access
	memberCheck func(args []json.RawMessage) error
}

// accessTable lists, for every bound method, who may call it in serve
// mode. TestAccessTableCoversEveryBoundMethod fails when a bound method is
// missing here; a method missing at run time is refused, never allowed.
var accessTable = map[string]rule{
	"Sessions.List":              {who: forMembers},
	"Sessions.Initial":           {who: forMembers},
	"Sessions.OpenPath":          {who: forOperators}, // a path on the server's disk
	"Sessions.Import":            {who: forOperators}, // paths on the server's disk
	"Sessions.OpenDialog":        {who: forDesktop},
	"Sessions.OpenDemo":          {who: forMembers},
	"Sessions.Delete":            {who: forOperators}, // others' sessions
	"Sessions.Open":              {who: forMembers},
	"Sessions.MarkSeen":          {who: forMembers},
	"UI.Environment":             {who: forMembers},
	"UI.Rendered":                {who: forMembers},
	"UI.GuideSeen":               {who: forMembers},
	"UI.AtWork":                  {who: forMembers},
	"Debugger.Policies":          {who: forMembers},
	"Debugger.Counters":          {who: forMembers},
	"Debugger.Threads":           {who: forMembers},
	"Debugger.Replay":            {who: forMembers},
	"Debugger.ReplayStep":        {who: forMembers},
	"Debugger.Context":           {who: forMembers},
	"Debugger.Wire":              {who: forMembers}, // sessions of the workspace, which members read
	"Debugger.Block":             {who: forMembers},
	"Debugger.Sweep":             {who: forMembers},
	"Debugger.ExportReplay":      {who: forMembers},
	"Debugger.ExportTimelineSVG": {who: forMembers},
	"Debugger.SaveTimelineSVG":   {who: forDesktop}, // a file on the server's disk
	"Debugger.SaveReplay":        {who: forDesktop},
	"Debugger.SaveGraph":         {who: forDesktop},
	"Debugger.Graph":             {who: forMembers},
	"Debugger.Search":            {who: forMembers},
	"Debugger.Locate":            {who: forMembers},
	"Debugger.Memory":            {who: forMembers},
	"Debugger.MemoryVariants":    {who: forMembers},
	"Debugger.LocatePassage":     {who: forMembers},
	"Live.Discovery":             {who: forOperators}, // the server's own agent folders
	"Live.SetDiscovery":          {who: forOperators},
	"Live.Follow":                {who: forOperators}, // reads a file on the server's disk as it grows
	"Live.Unfollow":              {who: forOperators},
	"Live.Following":             {who: forMembers},
	"Live.Proxy":                 {who: forOperators}, // the secret path of a proxy on the server's loopback
	"Live.SetProxy":              {who: forOperators}, // opens a port, writes into the workspace folder
	"Live.SetLiveEviction":       {who: forOperators}, // changes what the operator's proxy forwards
	"Memory.List":                {who: forMembers},
	"Memory.Info":                {who: forMembers},
	"Memory.Delete":              {who: forOperators},
	"Memory.Graph":               {who: forMembers},
	"Memory.Timeline":            {who: forMembers},
	"Memory.Entity":              {who: forMembers},
	"Memory.FindEntities":        {who: forMembers},
	"Memory.Merge":               {who: forOperators}, // edits a memory others read
	"Memory.Undo":                {who: forOperators},
	"Memory.Experiences":         {who: forMembers},
	"Memory.Passage":             {who: forMembers},
	"Memory.Build":               {who: forMembers, memberCheck: memberBuild},
	"Memory.Cancel":              {who: forMembers},
	"Memory.Job":                 {who: forMembers},
	"Memory.LLMSettings":         {who: forOperators},
	"Memory.SetLLMSettings":      {who: forOperators}, // where the operator's key is sent
	"Memory.Import":              {who: forOperators}, // paths on the server's disk
	"Memory.Questions":           {who: forMembers},
	"Memory.Retrieve":            {who: forMembers},
	"Memory.Search":              {who: forMembers},
	"Annotations.Annotator":      {who: forMembers},
	"Annotations.SetAnnotator":   {who: forDesktop}, // in serve mode the name comes from the token
	"Annotations.Queue":          {who: forMembers},
	"Annotations.AddLoCoMo":      {who: forMembers},
	"Annotations.AddCustom":      {who: forMembers},
	"Annotations.Remove":         {who: forOperators}, // a question others may be judging
	"Annotations.Task":           {who: forMembers},
	"Annotations.Mark":           {who: forMembers},
	"Annotations.Marks":          {who: forMembers},
	"Annotations.Agreement":      {who: forMembers},
	"Annotations.Export":         {who: forMembers},
}

// authorize reports whether p may call method with args, and why not.
func authorize(p Principal, method string, args []json.RawMessage) error {
	r, ok := accessTable[method]
	if !ok {
		return fmt.Errorf("%w: %s has no entry in the access table", ErrForbidden, method)
	}
	switch {
	case r.who == forDesktop:
		return fmt.Errorf("%w: %s is for the desktop window only", ErrForbidden, method)
	case p.Role == RoleOperator:
		return nil
	case r.who == forOperators:
		return fmt.Errorf("%w: %s is for the server's operators; %s is a member", ErrForbidden, method, p.Name)
	case p.Role != RoleMember:
		return fmt.Errorf("%w: unknown role %q", ErrForbidden, p.Role)
	case r.memberCheck != nil:
		if err := r.memberCheck(args); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrForbidden, method, err)
		}
	}
	return nil
}

// memberBuild lets a member build memory only with the offline extractor
// (the LLM extractor sends the operator's key and the workspace's text to
// the operator's endpoint) and only from what the workspace holds (a
// LoCoMo path would be read from the server's disk).
func memberBuild(args []json.RawMessage) error {
	if len(args) != 1 {
		return nil // Invoke's own argument check answers
	}
	var r BuildRequest
	if err := json.Unmarshal(args[0], &r); err != nil {
		return nil
	}
	if r.Source != "session" {
		return errors.New("members build from the workspace's sessions, not from a file on the server")
	}
	if r.Extractor != "offline" {
		return fmt.Errorf("members build with the offline extractor only, not %q", r.Extractor)
	}
	return nil
}
