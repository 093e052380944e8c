import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../../core/models/embeddings.ts';
import { createEmbeddingModel } from '../../../core/models/factory.ts';
import {
  LEXICAL_DEFAULT_DIMENSIONS,
  LexicalEmbeddingModel,
  LexicalIdf,
  lexicalEmbedding,
  lexicalTokens,
} from '../../../core/models/lexical.ts';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const sim = (a: string, b: string) => cosineSimilarity(lexicalEmbedding(a), lexicalEmbedding(b));

// Pairs that say the same thing in other words, in the world's domains.
const PARAPHRASES: Array<[string, string]> = [
  ['How many flights departed from ATL on 2022-01-05?', 'Number of flights departing ATL on 2022-01-05'],
  [
    'What is the average price of Airbnb listings in Brooklyn?',
    'Average listing price for Airbnb in Brooklyn',
  ],
  [
    'Which paper introduced the Transformer architecture?',
    'The Transformer architecture was introduced in which paper?',
  ],
  ['Filter the database rows where the city equals Tampa', 'filter rows of the database by city Tampa'],
  [
    'When is the dentist appointment on my agenda?',
    'On my agenda, when is the appointment with the dentist?',
  ],
  ['List the coauthors of Yoshua Bengio in DBLP', 'DBLP coauthors of Yoshua Bengio'],
];

const UNRELATED: Array<[string, string]> = [
  [
    'How many flights departed from ATL on 2022-01-05?',
    'Which paper introduced the Transformer architecture?',
  ],
  [
    'What is the average price of Airbnb listings in Brooklyn?',
    'List the coauthors of Yoshua Bengio in DBLP',
  ],
  ['Filter the database rows where the city equals Tampa', 'When is the dentist appointment on my agenda?'],
  [
    'When is the dentist appointment on my agenda?',
    'What is the average price of Airbnb listings in Brooklyn?',
  ],
  ['List the coauthors of Yoshua Bengio in DBLP', 'How many flights departed from ATL on 2022-01-05?'],
  [
    'The Transformer architecture was introduced in which paper?',
    'filter rows of the database by city Tampa',
  ],
];

describe('lexical embedding', () => {
  it('gives identical text a cosine of 1 and unit-length vectors', () => {
    for (const [a] of PARAPHRASES) {
      expect(sim(a, a)).toBeCloseTo(1, 12);
      expect(norm(lexicalEmbedding(a))).toBeCloseTo(1, 12);
    }
  });

  it('is deterministic across calls and instances', async () => {
    const text = 'Deterministic: same text, same vector.';
    expect(lexicalEmbedding(text)).toEqual(lexicalEmbedding(text));
    const [fromModel] = await new LexicalEmbeddingModel().embed([text]);
    expect(fromModel).toEqual(lexicalEmbedding(text));
  });

  it('scores every paraphrase pair above every unrelated pair', () => {
    const paraphrase = PARAPHRASES.map(([a, b]) => sim(a, b));
    const unrelated = UNRELATED.map(([a, b]) => sim(a, b));
    expect(Math.min(...paraphrase)).toBeGreaterThan(Math.max(...unrelated));
    expect(Math.min(...paraphrase)).toBeGreaterThan(0.4);
    expect(Math.max(...unrelated)).toBeLessThan(0.2);
  });

  it('relates inflected forms through character n-grams', () => {
    // The words differ, so only the shared n-grams (<dep, depa, epart, …) can relate them.
    expect(sim('departures', 'departed')).toBeGreaterThan(0.15);
    expect(sim('departures', 'giraffe')).toBeLessThan(0.05);
  });

  it('ignores case, punctuation and compatibility forms', () => {
    expect(sim('Flights, from ATL!', 'flights from atl')).toBeCloseTo(1, 12);
    expect(lexicalTokens('Ｆｌｉｇｈｔ №5 café')).toEqual(['flight', 'no5', 'café']);
  });

  it('embeds text without letters or digits as the zero vector', () => {
    const v = lexicalEmbedding(' ?! ');
    expect(v).toHaveLength(LEXICAL_DEFAULT_DIMENSIONS);
    expect(v.every((x) => x === 0)).toBe(true);
    expect(cosineSimilarity(v, lexicalEmbedding('anything'))).toBe(0);
  });

  it('lets a fitted IDF down-weight words every document shares', () => {
    const corpus = [
      'tool LoadDB loads a database',
      'tool FilterDB filters a database',
      'tool GetValue reads a database value',
      'tool RetrieveAgenda searches the agenda',
    ];
    const idf = LexicalIdf.fit(corpus);
    expect(idf.documents).toBe(4);
    const withIdf = (a: string, b: string) =>
      cosineSimilarity(lexicalEmbedding(a, { idf }), lexicalEmbedding(b, { idf }));
    // "tool … database" is shared boilerplate; the tool names are what distinguish the queries.
    expect(withIdf('tool LoadDB database', 'tool FilterDB database')).toBeLessThan(
      sim('tool LoadDB database', 'tool FilterDB database'),
    );
  });

  it('honours the configured width', async () => {
    const model = createEmbeddingModel({ provider: 'lexical', dimensions: 256 });
    expect(model).toMatchObject({ provider: 'lexical', model: 'tooldrift-lexical-v1', dimensions: 256 });
    const [v] = await model.embed(['width check']);
    expect(v).toHaveLength(256);
    expect(norm(v!)).toBeCloseTo(1, 12);
    expect(() => new LexicalEmbeddingModel({ dimensions: 8 })).toThrow(RangeError);
  });
});
