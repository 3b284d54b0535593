// Package cluster is the experience layer of the memory: dialogue units
// grouped by DBSCAN over their embeddings, routed incrementally to the
// nearest cluster, and summarised into typed experience items (fact,
// preference, strategy) that point back to the units supporting them.
package cluster

import "ctxscope/engine/memory/embed"

// Noise is the DBSCAN label of points in no cluster.
const Noise = -1

// DBSCAN labels unit vectors (unit length) with cluster numbers from 0, or
// [Noise], using cosine distance 1-a·b: a point with at least minSamples
// points (itself included) within eps is a core point, as in
// scikit-learn's DBSCAN(metric="cosine"). It takes O(n²) time.
func DBSCAN(vecs [][]float32, eps float64, minSamples int) []int {
	n := len(vecs)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -2 // unvisited
	}
	near := func(i int) []int {
		var out []int
		for j := 0; j < n; j++ {
			if 1-float64(embed.Dot(vecs[i], vecs[j])) <= eps+1e-9 {
				out = append(out, j)
			}
		}
		return out
	}
	next := 0
	for i := 0; i < n; i++ {
		if labels[i] != -2 {
			continue
		}
		nb := near(i)
		if len(nb) < minSamples {
			labels[i] = Noise
			continue
		}
		labels[i] = next
		queue := nb
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			if labels[j] == Noise {
				labels[j] = next
			}
			if labels[j] != -2 {
				continue
			}
			labels[j] = next
			if nbj := near(j); len(nbj) >= minSamples {
				queue = append(queue, nbj...)
			}
		}
		next++
	}
	return labels
}
