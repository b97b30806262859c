package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// EncodeSamples encodes a throughput series compactly: each sample as a
// little-endian IEEE 754 float32, the whole DEFLATE-compressed (RFC 1951).
// float32 keeps about 7 significant digits: a value v decodes as
// float64(float32(v)), a relative error below 6e-8.
func EncodeSamples(gbps []float64) []byte {
	raw := make([]byte, 4*len(gbps))
	for i, v := range gbps {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(v)))
	}
	var buf bytes.Buffer
	// NewWriter fails only for a bad level, and writes to a bytes.Buffer
	// do not fail.
	zw, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	zw.Write(raw)
	zw.Close()
	return buf.Bytes()
}

// DecodeSamples decodes a series encoded by EncodeSamples.
func DecodeSamples(b []byte) ([]float64, error) {
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		return nil, fmt.Errorf("decode samples: %w", err)
	}
	if len(raw)%4 != 0 {
		return nil, fmt.Errorf("decode samples: %d bytes is not a whole number of float32 samples", len(raw))
	}
	gbps := make([]float64, len(raw)/4)
	for i := range gbps {
		gbps[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
	}
	return gbps, nil
}
