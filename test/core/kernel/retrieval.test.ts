import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { createPassageIndex, tokenize } from '../../../core/world/retrieval.ts';
import type { Passage } from '../../../core/world/types.ts';

describe('tokenize', () => {
  it('lower-cases Unicode words and keeps digits', () => {
    expect(tokenize('Café Olé, São Paulo 42!')).toEqual(['café', 'olé', 'são', 'paulo', '42']);
  });

  it('normalises numeric dates and written dates to the same tokens', () => {
    const numeric = tokenize('Joshua Gym Workout 2022/06/03');
    const written = tokenize('On June 3rd 2022, Joshua goes to the gym');
    for (const t of ['2022', '6', '3', 'md:6-3', 'date:2022-6-3']) {
      expect(numeric).toContain(t);
      expect(written).toContain(t);
    }
  });

  it.each([
    ['Christmas Day, December 25th, 2022', 'date:2022-12-25'],
    ['On Sunday, January 16th 2022', 'date:2022-1-16'],
    ['September 17, 2022', 'date:2022-9-17'],
    ['the 5th of March, 2022', 'date:2022-3-5'],
    ['2022-02-29', 'date:2022-2-29'],
    ['on 7/5/2022', 'date:2022-7-5'],
    ['Sept. 9 2022', 'date:2022-9-9'],
  ])('recognises %j', (text, token) => {
    expect(tokenize(text)).toContain(token);
  });

  it('emits a month-day token for dates without a year', () => {
    expect(tokenize('What is on March 7th?')).toContain('md:3-7');
  });
});

const corpus: Passage[] = [
  { id: 'p0', text: 'Joshua attends a fitness class on May 11th, 2022 at the YMCA. He loves the gym.' },
  {
    id: 'p1',
    text: 'On June 3rd 2022, Joshua goes to the gym for a workout at LA Fitness from 6 PM to 7:30 PM.',
  },
  { id: 'p2', text: "Richard's gym session is on June 3rd, 2022 at Gold's Gym." },
  { id: 'p3', text: 'Mia has a breakfast meeting at Bluebird Cafe on Tuesday, August 9th, 2022.' },
  { id: 'p4', text: 'A completely unrelated passage about the weather.' },
];

describe('createPassageIndex', () => {
  const index = createPassageIndex(corpus);

  it('finds the passage written as "June 3rd 2022" for a 2022/06/03 query', () => {
    expect(index.search('Joshua Gym Workout 2022/06/03').map((p) => p.id)).toEqual(['p1', 'p2', 'p0']);
  });

  it('always returns k passages when there are enough, ties to the earlier passage', () => {
    expect(index.search('zzz').map((p) => p.id)).toEqual(['p0', 'p1', 'p2']);
    expect(index.search('', 2).map((p) => p.id)).toEqual(['p0', 'p1']);
    expect(index.search('weather', 5).map((p) => p.id)).toEqual(['p4', 'p0', 'p1', 'p2', 'p3']);
    expect(createPassageIndex(corpus.slice(0, 2)).search('gym', 3)).toHaveLength(2);
    expect(createPassageIndex([]).search('gym')).toEqual([]);
  });

  it('indexes 10,000 passages and answers every query with 3 passages', () => {
    const rng = new Rng('retrieval-benchmark');
    const names = [
      'Mia',
      'William',
      'Joshua',
      'Amelia',
      'Richard',
      'Grace',
      'George',
      'Isabella',
      'Charles',
      'Emma',
    ];
    const events = [
      'breakfast meeting',
      'gym workout',
      'yoga class',
      'opera performance',
      'book signing',
      'art walk',
    ];
    const places = ['Bluebird Cafe', 'LA Fitness', 'Hilton Chicago', 'The Batcade Studios', 'Central Park'];
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September'];
    const passages: Passage[] = [];
    for (let i = 0; i < 10_000; i++) {
      const text =
        `${rng.pick(names)} has a ${rng.pick(events)} scheduled on ${rng.pick(months)} ${rng.int(1, 28)}th, 2022. ` +
        `It starts at ${rng.int(1, 12)}:00 PM and runs until ${rng.int(1, 12)}:30 PM at ${rng.pick(places)}. ` +
        'They have been looking forward to it for weeks, and plan to bring a friend along to share the experience.';
      passages.push({ id: `agenda-${i}`, text });
    }
    // Speed is measured by `npm run bench:world`; here the index must simply work at full size.
    const big = createPassageIndex(passages);
    const queries = [
      'Joshua gym workout 2022/06/03',
      'Amelia Breakfast Meeting 2022/01/16',
      "Stephen's Opera performance",
      'What did Mia do from 9:00 AM to 10:30 AM on 2022/03/07?',
      'Where did the book signing that Grace attended take place on 2022/05/21?',
    ];
    for (const q of queries) expect(big.search(q)).toHaveLength(3);
  });
});
