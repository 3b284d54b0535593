package claude

// uuidIndex maps record uuids to their entries. It keeps every uuid until
// it is bounded: then it keeps two generations of at most genSize uuids
// each, so that a decoder that releases its entries (streaming a file of
// any size) keeps memory bounded too. Parents are almost always recent
// records; one further back than two generations is then left unresolved,
// and a duplicate that far back goes unnoticed.
type uuidIndex struct {
	cur, prev map[string]ref
	bounded   bool
}

const genSize = 1 << 14

func newUUIDIndex() *uuidIndex { return &uuidIndex{cur: map[string]ref{}} }

func (x *uuidIndex) get(uuid string) (ref, bool) {
	if r, ok := x.cur[uuid]; ok {
		return r, true
	}
	r, ok := x.prev[uuid]
	return r, ok
}

func (x *uuidIndex) put(uuid string, r ref) {
	if x.bounded && len(x.cur) >= genSize {
		x.prev, x.cur = x.cur, make(map[string]ref, genSize)
	}
	x.cur[uuid] = r
}
