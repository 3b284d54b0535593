package llm

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// NotMentioned is the first option of adversarial questions.
const NotMentioned = "Not mentioned in the conversation"

// Answerer adapts a client to eval's answering interface, with a seeded
// order for the adversarial options (the reference's order is random and
// unseeded).
type Answerer struct {
	Client *Client
	Rand   *rand.Rand
}

// Answer answers with [Client.Answer].
func (a Answerer) Answer(ctx context.Context, context_, question string, category int, adversarial string) (string, error) {
	return a.Client.Answer(ctx, context_, question, category, adversarial, a.Rand)
}

// Answer asks the model to answer a LoCoMo question from a context with
// the reference driver's prompts: per-category tails, temperature 0.7
// (0.01 for adversarial questions, whose two options come in random
// order). The answer is the "answer" field of the reply.
func (c *Client) Answer(ctx context.Context, context_, question string, category int, adversarial string, rng *rand.Rand) (string, error) {
	head := fmt.Sprintf(answerHead, context_)
	var tail string
	temp := 0.7
	switch category {
	case 2:
		tail = fmt.Sprintf(answerTemporal, question)
	case 3:
		tail = fmt.Sprintf(answerOpen, question)
	case 5:
		a, b := NotMentioned, adversarial
		if rng != nil && rng.IntN(2) == 1 {
			a, b = b, a
		}
		tail = fmt.Sprintf(answerAdversarial, question, a, b)
		temp = 0.01
	default:
		tail = fmt.Sprintf(answerDefault, question)
	}
	obj, err := c.JSON(ctx, head+tail+answerJSON, temp, 1)
	if err != nil {
		return "", err
	}
	return str(obj, "answer")
}
