package report_test

import (
	"path/filepath"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/report"
	"ctxscope/engine/tokens"
)

// TestCalibrationOnRealSessions calibrates the estimator online on every
// shared session and sample that records usage on enough requests: the
// median error is at most 3% and the 95th percentile at most 10% of the
// reported input, per file (the figures per file are in docs/BENCHMARKS.md
// via BenchmarkCalibration).
func TestCalibrationOnRealSessions(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/shared/sessions/*/*")
	samples, _ := filepath.Glob("../ingest/*/testdata/samples/*")
	scored := 0
	for _, path := range append(files, samples...) {
		ss, _, err := ingest.ReadPaths([]string{path})
		if err != nil || len(ss) == 0 {
			continue
		}
		var obsN, scoredN int
		var worstMedian, worstP95 float64
		for _, s := range ss {
			_, cal := report.Calibrate(s.Threads, tokens.NewLedger(tokens.Estimator{}))
			obsN += cal.N
			if cal.Scored == 0 {
				continue
			}
			scoredN += cal.Scored
			worstMedian = max(worstMedian, cal.MedianError)
			worstP95 = max(worstP95, cal.P95Error)
		}
		if scoredN == 0 {
			continue
		}
		scored++
		t.Logf("%s: %d reported requests, %d scored, median error %.2f%%, p95 %.2f%%", filepath.Base(path), obsN, scoredN, 100*worstMedian, 100*worstP95)
		if worstMedian > 0.03 || worstP95 > 0.10 {
			t.Errorf("%s: median error %.3f, p95 %.3f; want ≤ 0.03 and ≤ 0.10", path, worstMedian, worstP95)
		}
	}
	if scored < 5 {
		t.Errorf("only %d files had requests to score", scored)
	}
}

// BenchmarkCalibration times the online calibration of each shared
// session that records usage and reports its errors, so that make bench
// writes the figures per file into docs/BENCHMARKS.md.
func BenchmarkCalibration(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/shared/sessions/*/*")
	for _, path := range files {
		ss, err := ingest.ReadFileAll(path)
		if err != nil || len(ss) != 1 {
			continue
		}
		l := tokens.NewLedger(tokens.Estimator{})
		if _, cal := report.Calibrate(ss[0].Threads, l); cal.Scored == 0 {
			continue
		}
		b.Run(filepath.Base(path), func(b *testing.B) {
			var cal tokens.Calibration
			for i := 0; i < b.N; i++ {
				_, cal = report.Calibrate(ss[0].Threads, l)
			}
			b.ReportMetric(float64(cal.Scored), "requests")
			b.ReportMetric(100*cal.MedianError, "median-err-%")
			b.ReportMetric(100*cal.P95Error, "p95-err-%")
		})
	}
}
