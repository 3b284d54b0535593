package embed

import "context"

// Centered wraps a provider and removes a common component from every
// vector: v - (v·c)c, renormalized. It is the "remove the first principal
// component" step of SIF (Arora et al. 2017), with the component fitted on
// the texts of one memory by [FitCommon]. Without it, GloVe averages of
// LoCoMo turns have a median pairwise cosine of 0.90 and DBSCAN at eps
// 0.3 puts nearly every turn in one cluster; with it the median is 0.
type Centered struct {
	Base   Provider
	Common []float32 // unit length
}

// Name returns the base name with "+centered".
func (c Centered) Name() string { return c.Base.Name() + "+centered" }

// Dim returns the base dimension.
func (c Centered) Dim() int { return c.Base.Dim() }

// Embed embeds with the base provider and removes the common component.
func (c Centered) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := c.Base.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		Remove(v, c.Common)
	}
	return vs, nil
}

// Remove takes the component along unit vector c out of v and
// renormalizes v.
func Remove(v, c []float32) {
	if len(c) != len(v) {
		return
	}
	d := Dot(v, c)
	for i := range v {
		v[i] -= d * c[i]
	}
	Normalize(v)
}

// MinCommonTexts is the fewest texts [FitCommon] fits a component on;
// with fewer the mean is mostly the texts themselves (two texts would end
// up pointing in opposite directions), and it returns nil.
const MinCommonTexts = 50

// FitCommon returns the normalized mean of the texts' vectors, the
// dominant common direction when vectors cluster around it (for such
// data the mean and the first principal component coincide), or nil
// for fewer than [MinCommonTexts] texts.
func FitCommon(ctx context.Context, p Provider, texts []string) ([]float32, error) {
	if len(texts) < MinCommonTexts {
		return nil, nil
	}
	vs, err := p.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	return Mean(vs), nil
}

// NeedsCentering reports whether vectors from p should be centered: true
// for providers that say so (the GloVe SIF embedder).
func NeedsCentering(p Provider) bool {
	c, ok := p.(interface{ NeedsCentering() bool })
	return ok && c.NeedsCentering()
}

// ForMemory returns p centered on common when common is set, else p.
func ForMemory(p Provider, common []float32) Provider {
	if len(common) == 0 {
		return p
	}
	return Centered{Base: p, Common: common}
}
