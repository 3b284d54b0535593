package app

import "context"

// UI is the bound service for facts about the host, the first-run guide,
// and the frontend's own progress reports.
type UI struct {
	app     *App
	noGuide bool
}

// Environment describes the host to the frontend.
type Environment struct {
	// Desktop is true in the desktop window, false in serve mode.
	Desktop bool `json:"desktop"`
	// Dialogs is true when OpenDialog can show a file dialog.
	Dialogs bool `json:"dialogs"`
	// Upload is true when files can be uploaded (serve mode).
	Upload bool `json:"upload"`
	// Guide is true when the first-run guide should show: the workspace
	// has not seen it and the app was not started with --no-guide.
	Guide bool `json:"guide"`
	// Role is the caller's role in serve mode ("member" or "operator"),
	// "operator" in the desktop window: the page hides what the role may
	// not do (the server refuses it anyway).
	Role Role `json:"role"`
	// User is the name the caller's marks are made under in serve mode,
	// "" in the desktop window.
	User string `json:"user"`
}

// guideSetting is the workspace setting that records that the first-run
// guide was seen.
const guideSetting = "ui.guideSeen"

// Environment reports what the host offers.
func (u *UI) Environment(ctx context.Context) Environment {
	u.app.called("UI.Environment")
	desktop := u.app.platform.Desktop()
	env := Environment{Desktop: desktop, Dialogs: desktop, Upload: !desktop, Guide: !u.noGuide && !u.guideSeen(), Role: RoleOperator}
	if p, ok := principalOf(ctx); ok {
		env.Role, env.User = p.Role, p.Name
	}
	return env
}

// guideSeen reports whether the workspace has seen the first-run guide;
// a setting that cannot be read counts as seen, so that the guide never
// blocks a workspace it cannot remember closing in.
func (u *UI) guideSeen() bool {
	var seen bool
	_, err := u.app.local.get(guideSetting, &seen)
	return err != nil || seen
}

// GuideSeen records that the first-run guide was seen (closed): it does
// not show again in this workspace.
func (u *UI) GuideSeen(ctx context.Context) error {
	u.app.called("UI.GuideSeen")
	return u.app.local.put(guideSetting, true)
}

// Rendered is called by the frontend when a view has finished drawing. It
// logs one line that tests wait for instead of sleeping. Only counts
// travel: no session content.
func (u *UI) Rendered(ctx context.Context, view string, requests int) {
	u.app.called("UI.Rendered", view, requests)
	u.app.logf("rendered view=%s requests=%d", sanitizeWord(view), requests)
}

// AtWork says that the user is at work in the page without calling Go
// (a scrub of the timeline redraws the page alone): background indexing
// then waits between its batches as it does while calls come. The page
// calls it a few times a second while such a gesture lasts.
func (u *UI) AtWork(ctx context.Context) {
	u.app.called("UI.AtWork")
}

// sanitizeWord keeps letters, digits and dashes, so that whatever the
// frontend sends cannot forge log lines.
func sanitizeWord(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			out = append(out, r)
		}
		if len(out) >= 32 {
			break
		}
	}
	return string(out)
}
