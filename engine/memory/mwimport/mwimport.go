// Package mwimport loads the memory MemWeaver's released code built for
// LoCoMo, exported from its pickles to JSON (kg_sample_N.json and
// clusters_sample_N.json), into a [memory.Memory].
//
// Passage nodes are aligned with the conversation's LoCoMo turns when
// those are given, so that imported passages carry dialogue ids ("D1:3")
// and evidence can be scored; otherwise the export's own turn ids stand.
package mwimport

import (
	"encoding/json"
	"fmt"

	"ctxscope/engine/inputfile"
	"ctxscope/engine/memory"
)

// kgFile is the layout of kg_sample_N.json.
type kgFile struct {
	SampleIndex int        `json:"sample_index"`
	Entities    []node     `json:"entities"`
	Relations   []relation `json:"relations"`
}

type node struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Metadata struct {
		NodeType  string   `json:"node_type"`
		Source    string   `json:"source"`
		Timestamp string   `json:"timestamp"`
		QAID      string   `json:"qa_id"`
		Speaker   string   `json:"speaker"`
		Aliases   []string `json:"aliases"`
	} `json:"metadata"`
}

type relation struct {
	ID       string `json:"id"`
	Source   string `json:"source"`
	Target   string `json:"target"`
	Type     string `json:"relation_type"`
	Metadata struct {
		Time      string `json:"time"`
		Condition string `json:"condition"`
		SessionID int    `json:"session_id"`
		QAID      string `json:"qa_id"`
		PassageID string `json:"passage_id"`
		Source    string `json:"source"`
	} `json:"metadata"`
}

// clustersFile is the layout of clusters_sample_N.json.
type clustersFile struct {
	Clusters []struct {
		ID         string `json:"id"`
		CenterText string `json:"center_text"`
		Metadata   struct {
			Consistency struct {
				Label string `json:"label"`
			} `json:"consistency"`
		} `json:"metadata"`
		QAList []struct {
			ID        string `json:"id"`
			Speaker   string `json:"speaker"`
			Timestamp string `json:"timestamp"`
			Question  string `json:"question"`
		} `json:"QAList"`
		ExpList []struct {
			ID        string   `json:"id"`
			Type      string   `json:"type"`
			Content   string   `json:"content"`
			SourceQAs []string `json:"source_qa_ids"`
		} `json:"ExpList"`
		AddBuffer []string `json:"add_buffer_qa_ids"`
	} `json:"clusters"`
}

func readJSON(path string, v any) error {
	data, err := inputfile.ReadAll(path, 0)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return memory.JSONError(path, data, err)
	}
	return nil
}

// Report counts what an import read, in the terms of the export's
// export_stats.json.
type Report struct {
	Entities   int `json:"entityNodes"`
	Passages   int `json:"passageNodes"`
	Semantic   int `json:"semantic"`          // entity → entity relations
	Indexed    int `json:"semanticIndexed"`   // those not named "contains" or "about"
	FromReview int `json:"fromSessionReview"` // of Indexed
	// PassageEndpoints counts passage nodes that a semantic relation ends
	// at, imported as entities as well.
	PassageEndpoints int            `json:"passageEndpoints"`
	Contains         int            `json:"containsStructural"`
	Clusters         int            `json:"clusters"`
	Clustered        int            `json:"clusteredTurns"`
	Experiences      int            `json:"experienceItems"`
	ExperienceByType map[string]int `json:"experienceTypes"`
	Aligned          int            `json:"alignedPassages"` // passages matched to LoCoMo turns
	Skipped          []string       `json:"skipped,omitempty"`
}

// Load reads a graph and a clusters export. passages, when not nil, are
// the LoCoMo turns of the same conversation, used to give imported
// passages their dialogue ids.
func Load(kgPath, clustersPath string, passages []memory.Passage) (*memory.Memory, *Report, error) {
	var kf kgFile
	if err := readJSON(kgPath, &kf); err != nil {
		return nil, nil, err
	}
	var cf clustersFile
	if clustersPath != "" {
		if err := readJSON(clustersPath, &cf); err != nil {
			return nil, nil, err
		}
	}
	m, rep, err := convert(&kf, &cf, passages)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", kgPath, err)
	}
	return m, rep, nil
}
