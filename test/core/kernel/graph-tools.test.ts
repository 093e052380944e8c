import { describe, expect, it } from 'vitest';
import { PyInt } from '../../../core/util/python-format.ts';
import {
  EDGE_ARGUMENTS_WRONG,
  GRAPH_NOT_IN_LIST,
  NEIGHBOUR_ARGUMENTS_WRONG,
  NO_EDGE,
  NODE_ARGUMENTS_WRONG,
  NODE_NOT_EXIST,
} from '../../../core/world/kernel/messages.ts';
import { fixtureWorld, lastObservation, run } from './fixtures.ts';

const world = fixtureWorld();
const M3 = 'M3: end-to-end memory management in elastic system software stacks';
const SIGMA = 'The integrated sigma-max system and its application in target recognition';
const CLAIRE = "Claire O'Shea's study of graphs";
const SLIDING = 'Sliding Modes in a Class of Complex-Valued Nonlinear Systems';

describe('LoadGraph', () => {
  it('accepts dblp in any case and nothing else', async () => {
    expect(await lastObservation(world, [['LoadGraph', { GraphName: 'DBLP' }]])).toBe(
      'DBLP data is loaded, including two graphs: AuthorNet and PaperNet.',
    );
    expect(await lastObservation(world, [['LoadGraph', { GraphName: 'PaperNet' }]])).toBe(
      "We don't have the graph data named PaperNet",
    );
    expect(await lastObservation(world, [['LoadGraph', { GraphName: new PyInt(1) }]])).toBe(
      'The graph you want to query in not in the list. Please change another graph for query.',
    );
    expect(await lastObservation(world, [['LoadGraph', { GraphName: null }]])).toBe(GRAPH_NOT_IN_LIST);
  });

  it('changes no table state and is not needed before the graph tools', async () => {
    const rs = await run(world, [
      ['NodeCheck', { GraphName: 'AuthorNet', Node: 'Ning Li' }],
      ['LoadGraph', { GraphName: 'dblp' }],
    ]);
    expect(rs[0]?.outcome).toEqual({ kind: 'ok' });
    expect(rs[1]?.state.db).toBeNull();
  });
});

describe('NeighbourCheck', () => {
  it('AuthorNet: degree, (name, weight) tuples, total papers with duplicates, distinct titles', async () => {
    expect(
      await lastObservation(world, [['NeighbourCheck', { GraphName: 'AuthorNet', Node: 'Ning Li' }]]),
    ).toBe(
      "Degree: 2; 2 neighbors: [('Jian Dong', 'weight: 1'), ('Limin Liu', 'weight: 1')]; Total 2 papers; Paper list: The integrated sigma-max system and its application in target recognition",
    );
  });

  it('AuthorNet: counts the duplicated paper ids of a multi-paper edge', async () => {
    expect(
      await lastObservation(world, [['NeighbourCheck', { GraphName: 'AuthorNet', Node: 'Chao Zhang' }]]),
    ).toBe(
      `Degree: 1; 1 neighbors: [('Weihong Lin', 'weight: 3')]; Total 3 papers; Paper list: ${SLIDING}, ${CLAIRE}`,
    );
  });

  it('AuthorNet: an author without co-authors', async () => {
    expect(
      await lastObservation(world, [['NeighbourCheck', { GraphName: 'AuthorNet', Node: 'Lonely Author' }]]),
    ).toBe('Degree: 0; 0 neighbors: []; Total 0 papers; Paper list: ');
  });

  it('PaperNet: in/out degree and the titles of cited papers that have one', async () => {
    expect(await lastObservation(world, [['NeighbourCheck', { GraphName: 'PaperNet', Node: M3 }]])).toBe(
      `In degree: 0; Out degree: 3; 3 neighbors: ['${SIGMA}', "${CLAIRE}"]`,
    );
    expect(await lastObservation(world, [['NeighbourCheck', { GraphName: 'PaperNet', Node: SIGMA }]])).toBe(
      'In degree: 2; Out degree: 0; 0 neighbors: []',
    );
  });

  it('fails with one message for unknown nodes, wrong graph names and non-string nodes', async () => {
    for (const args of [
      { GraphName: 'AuthorNet', Node: 'Nobody' },
      { GraphName: 'PaperNet', Node: 'Ning Li' },
      { GraphName: 'authornet', Node: 'Ning Li' },
      { GraphName: 'dblp', Node: 'Ning Li' },
      { GraphName: 'AuthorNet', Node: ['Ning Li'] },
      { GraphName: 'AuthorNet', Node: new PyInt(3) },
    ]) {
      expect(await lastObservation(world, [['NeighbourCheck', args]])).toBe(
        'There is something wrong with the arguments you send for neighbour checking. Please modify it.',
      );
    }
    expect(NEIGHBOUR_ARGUMENTS_WRONG).toMatch(/neighbour checking/);
  });
});

describe('NodeCheck', () => {
  it('PaperNet: attribute dict repr in pickle order plus total degree', async () => {
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'PaperNet', Node: M3 }]])).toBe(
      "{'title': 'M3: end-to-end memory management in elastic system software stacks', 'authors': [{'id': '562d199d45cedb3398d51b6e', 'name': 'David Lion', 'org': 'University of Toronto'}, {'id': '63721acbec88d95668cac8ea', 'name': 'Adrian Chiu', 'org': 'University of Toronto'}], 'year': 2021, 'venue': {'raw': 'EUROSYS'}, 'n_citation': 3, 'keywords': [], 'doc_type': 'Conference', 'page_start': '507', 'page_end': '522'}; Degree: 3",
    );
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'PaperNet', Node: CLAIRE }]])).toBe(
      `{'title': "Claire O'Shea's study of graphs", 'authors': [], 'year': 2022, 'venue': {'raw': 'EUROSYS'}, 'n_citation': 0, 'keywords': [' lacunary fractional spline'], 'doc_type': 'Conference', 'page_start': '', 'page_end': ''}; Degree: 2`,
    );
  });

  it('AuthorNet: the org dict and the degree', async () => {
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'AuthorNet', Node: 'Ning Li' }]])).toBe(
      "{'org': 'Argonne National Laboratory'}; Degree: 2",
    );
    expect(
      await lastObservation(world, [['NodeCheck', { GraphName: 'AuthorNet', Node: 'Lonely Author' }]]),
    ).toBe("{'org': ''}; Degree: 0");
  });

  it('unknown node (KeyError) vs bad arguments (TypeError / wrong graph name)', async () => {
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'AuthorNet', Node: 'Nobody' }]])).toBe(
      'The node does not exist in the graph. Please modify it.',
    );
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'PaperNet', Node: new PyInt(7) }]])).toBe(
      NODE_NOT_EXIST,
    );
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'PaperNet', Node: [M3] }]])).toBe(
      'There is something wrong with the arguments you send for node checking. Please modify it.',
    );
    expect(await lastObservation(world, [['NodeCheck', { GraphName: 'dblp', Node: 'Ning Li' }]])).toBe(
      NODE_ARGUMENTS_WRONG,
    );
    const [r] = await run(world, [['NodeCheck', { GraphName: 'AuthorNet', Node: 'Nobody' }]]);
    expect(r?.outcome).toEqual({ kind: 'error', reason: 'unknown-node' });
  });
});

describe('EdgeCheck', () => {
  it('PaperNet: the (empty) attribute dict of an existing citation, direction matters', async () => {
    expect(
      await lastObservation(world, [['EdgeCheck', { GraphName: 'PaperNet', Node1: M3, Node2: SIGMA }]]),
    ).toBe('{}');
    expect(
      await lastObservation(world, [['EdgeCheck', { GraphName: 'PaperNet', Node1: SIGMA, Node2: M3 }]]),
    ).toBe('There is no edge between the two nodes. Please modify it.');
  });

  it('AuthorNet: weight, paper titles and citations, in either direction', async () => {
    expect(
      await lastObservation(world, [
        ['EdgeCheck', { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' }],
      ]),
    ).toBe(`{'weight': 3, 'papers': ['${SLIDING}', "${CLAIRE}", "${CLAIRE}"], 'n_citation': [5, 0, 0]}`);
    expect(
      await lastObservation(world, [
        ['EdgeCheck', { GraphName: 'AuthorNet', Node1: 'Jian Dong', Node2: 'Ning Li' }],
      ]),
    ).toBe(`{'weight': 1, 'papers': ['${SIGMA}'], 'n_citation': [0]}`);
  });

  it('does not mutate the graph: checking the same edge twice gives the same answer (deliberate fix)', async () => {
    const call: ['EdgeCheck', Record<string, unknown>] = [
      'EdgeCheck',
      { GraphName: 'AuthorNet', Node1: 'Ning Li', Node2: 'Limin Liu' },
    ];
    const rs = await run(world, [
      call,
      call,
      ['NeighbourCheck', { GraphName: 'AuthorNet', Node: 'Ning Li' }],
    ]);
    expect(rs[1]?.observation).toBe(rs[0]?.observation);
    expect(rs[2]?.observation).toMatch(/^Degree: 2; /);
    expect(world.dblp.coauthors.get('a0')?.get('a2')?.papers).toEqual(['53e99784b7602d9701f3ffd2']);
  });

  it('no edge for missing edges and unknown names; bad arguments for wrong graphs and list nodes', async () => {
    expect(
      await lastObservation(world, [
        ['EdgeCheck', { GraphName: 'AuthorNet', Node1: 'Ning Li', Node2: 'Chao Zhang' }],
      ]),
    ).toBe(NO_EDGE);
    expect(
      await lastObservation(world, [
        ['EdgeCheck', { GraphName: 'AuthorNet', Node1: 'Nobody', Node2: ['x'] }],
      ]),
    ).toBe(NO_EDGE);
    expect(
      await lastObservation(world, [
        ['EdgeCheck', { GraphName: 'AuthorNet', Node1: 'Ning Li', Node2: ['x'] }],
      ]),
    ).toBe('There is something wrong with the arguments you send for edge checking. Please modify it.');
    expect(
      await lastObservation(world, [['EdgeCheck', { GraphName: 'dblp', Node1: 'Nobody', Node2: 'Nobody' }]]),
    ).toBe(EDGE_ARGUMENTS_WRONG);
  });
});
