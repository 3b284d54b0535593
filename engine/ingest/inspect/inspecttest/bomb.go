// Package inspecttest writes Inspect containers for tests.
package inspecttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"os"
	"strconv"
)

// WriteBomb writes to path an Inspect .eval container whose one sample
// inflates to size bytes of zeros (a multiple of 1 MiB) from a few
// megabytes: a zip bomb. It writes in well under a second: the sample's
// deflate stream is one flushed, byte-aligned block of a mebibyte of
// zeros, repeated (each block refers only to its own output), then an
// empty final block.
func WriteBomb(path string, size int64) error {
	const chunk = 1 << 20
	zeros := make([]byte, chunk)
	var block bytes.Buffer
	fw, err := flate.NewWriter(&block, flate.BestCompression)
	if err != nil {
		return err
	}
	fw.Write(zeros)
	fw.Flush() // ends byte-aligned, not final
	var final bytes.Buffer
	fin, _ := flate.NewWriter(&final, flate.BestCompression)
	fin.Close() // an empty final block
	n := size / chunk
	crc := uint32(0)
	for i := int64(0); i < n; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	f, zw, err := newContainer(path, "bomb")
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "samples/1_epoch_1.json", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(n)*uint64(block.Len()) + uint64(final.Len()), UncompressedSize64: uint64(n * chunk)})
	if err != nil {
		return err
	}
	for i := int64(0); i < n; i++ {
		if _, err := w.Write(block.Bytes()); err != nil {
			return err
		}
	}
	w.Write(final.Bytes())
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// WriteManyMembers writes to path an Inspect .eval container of members
// samples, each memberSize bytes of zeros (just under the per-member
// ratio floor passes every per-member check): a bomb by number, 2,000
// members of 1 MiB − 1 inflating about 2 GB from a few megabytes.
func WriteManyMembers(path string, members int, memberSize int) error {
	zeros := make([]byte, memberSize)
	var packed bytes.Buffer
	fw, err := flate.NewWriter(&packed, flate.BestCompression)
	if err != nil {
		return err
	}
	fw.Write(zeros)
	fw.Close()
	crc := crc32.ChecksumIEEE(zeros)
	f, zw, err := newContainer(path, "many")
	if err != nil {
		return err
	}
	defer f.Close()
	for i := 1; i <= members; i++ {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "samples/" + strconv.Itoa(i) + "_epoch_1.json", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(packed.Len()), UncompressedSize64: uint64(memberSize)})
		if err != nil {
			return err
		}
		if _, err := w.Write(packed.Bytes()); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// newContainer creates an .eval container at path with the header of a
// task, and returns the file and the zip writer to add samples with.
func newContainer(path, task string) (*os.File, *zip.Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	zw := zip.NewWriter(f)
	h, err := zw.Create("header.json")
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	h.Write([]byte(`{"version":2,"status":"success","eval":{"task":"` + task + `","model":"none"}}`))
	return f, zw, nil
}
