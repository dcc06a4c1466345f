/**
 * Parse the simple JSON paths Vertex Gemini puts in `partialArgs`: `$.a.b[0].c`, `$['a b']`,
 * `$["x"]`. Returns the steps, or undefined when the path is not of that form.
 *
 * @example parseJsonPath('$.recipe.steps[1]') // ['recipe', 'steps', 1]
 */
export function parseJsonPath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: (string | number)[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      if (j === i + 1) return undefined;
      steps.push(path.slice(i + 1, j));
      i = j;
    } else if (c === '[') {
      const quote = path[i + 1];
      if (quote === "'" || quote === '"') {
        let j = i + 2;
        let key = '';
        while (j < path.length && path[j] !== quote) {
          if (path[j] === '\\' && j + 1 < path.length) j++;
          key += path[j];
          j++;
        }
        if (path[j + 1] !== ']') return undefined;
        steps.push(key);
        i = j + 2;
      } else {
        const end = path.indexOf(']', i);
        if (end < 0) return undefined;
        const digits = path.slice(i + 1, end);
        if (!/^\d{1,7}$/.test(digits)) return undefined;
        steps.push(Number(digits));
        i = end + 1;
      }
    } else {
      return undefined;
    }
  }
  return steps;
}
