/** About 1 MB of JSON as an object graph: 5,000 records of several fields. */
export function oneMegabyteObject() {
  return Array.from({ length: 5_000 }, (_, i) => ({
    id: i,
    name: `record number ${i} with a reasonably descriptive name`,
    tags: ['alpha', 'beta', `tag-${i % 97}`, 'gamma-delta'],
    score: i * 1.5,
    ok: i % 2 === 0,
    text: 'lorem ipsum dolor sit amet, consectetur adipiscing elit',
  }));
}
