package app

import (
	"context"
	"testing"
)

// TestGuideShowsUntilSeen shows the first-run guide in a new workspace
// until it is seen, and never with NoGuide.
func TestGuideShowsUntilSeen(t *testing.T) {
	a := newApp(t, Options{})
	if !a.ui.Environment(context.Background()).Guide {
		t.Fatal("a new workspace does not show the guide")
	}
	if err := a.ui.GuideSeen(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a.ui.Environment(context.Background()).Guide {
		t.Error("the guide shows again after it was seen")
	}
	if newApp(t, Options{NoGuide: true}).ui.Environment(context.Background()).Guide {
		t.Error("the guide shows with NoGuide")
	}
}
