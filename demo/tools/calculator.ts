/**
 * Arithmetic for the demo's `calculator` tool, parsed by hand: no `eval`, no `Function`, so a
 * model (or a prompt injected into it) can send any text and get a number or a clear error.
 *
 * Grammar: numbers (`12`, `1.5`, `2e7`, `1_000`), `+ - * / % ^` (`**` too; `^` binds right),
 * unary minus, parentheses, functions (sqrt, abs, round, floor, ceil, sin, cos, tan, ln, log,
 * log2, exp, min, max) and constants (pi, e).
 */

export class CalculatorError extends Error {
  override name = 'CalculatorError';
  /** Where in the expression (0-based). */
  readonly at: number;
  constructor(message: string, at: number) {
    super(message);
    this.at = at;
  }
}

const MAX_LENGTH = 1_000;
const MAX_DEPTH = 100;

const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...xs: number[]) => number }> = {
  sqrt: { arity: [1, 1], fn: Math.sqrt },
  abs: { arity: [1, 1], fn: Math.abs },
  round: { arity: [1, 1], fn: Math.round },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  ln: { arity: [1, 1], fn: Math.log },
  log: { arity: [1, 1], fn: Math.log10 },
  log2: { arity: [1, 1], fn: Math.log2 },
  exp: { arity: [1, 1], fn: Math.exp },
  min: { arity: [1, 64], fn: Math.min },
  max: { arity: [1, 64], fn: Math.max },
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'op'; value: string; at: number }
  | { kind: 'end'; at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      const literal = number[0];
      if (/_$|__|_\./.test(literal)) throw new CalculatorError(`Malformed number '${literal}'`, i);
      tokens.push({ kind: 'number', value: Number(literal.replaceAll('_', '')), at: i });
      i += literal.length;
      continue;
    }
    const name = /^[a-zA-Z_]\w*/.exec(text.slice(i));
    if (name) {
      tokens.push({ kind: 'name', value: name[0].toLowerCase(), at: i });
      i += name[0].length;
      continue;
    }
    if (text.startsWith('**', i)) {
      tokens.push({ kind: 'op', value: '^', at: i });
      i += 2;
      continue;
    }
    if ('+-*/%^(),×÷−'.includes(c)) {
      const value = c === '×' ? '*' : c === '÷' ? '/' : c === '−' ? '-' : c;
      tokens.push({ kind: 'op', value, at: i });
      i++;
      continue;
    }
    throw new CalculatorError(`Unexpected character '${c}'`, i);
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

/** Evaluate an expression; throws `CalculatorError` (with the position) when it is not one. */
export function evaluate(expression: string): number {
  if (typeof expression !== 'string') throw new CalculatorError('The expression must be text', 0);
  if (expression.length > MAX_LENGTH)
    throw new CalculatorError(`The expression is longer than ${MAX_LENGTH} characters`, MAX_LENGTH);
  const tokens = tokenize(expression);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos] as Token;
  const isOp = (value: string) => {
    const t = peek();
    return t.kind === 'op' && t.value === value;
  };
  const expect = (value: string) => {
    if (!isOp(value)) throw new CalculatorError(`Expected '${value}'${where(peek())}`, peek().at);
    pos++;
  };
  const where = (t: Token) => (t.kind === 'end' ? ' at the end' : ` at position ${t.at + 1}`);
  const nested = <T>(parse: () => T): T => {
    if (++depth > MAX_DEPTH) throw new CalculatorError('The expression nests too deeply', peek().at);
    try {
      return parse();
    } finally {
      depth--;
    }
  };

  // sum := product (('+' | '-') product)*
  const sum = (): number => {
    let value = product();
    while (isOp('+') || isOp('-')) {
      const op = (tokens[pos++] as { value: string }).value;
      const right = product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  // product := unary (('*' | '/' | '%') unary)*
  const product = (): number => {
    let value = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const token = tokens[pos++] as { value: string; at: number };
      const right = unary();
      if ((token.value === '/' || token.value === '%') && right === 0)
        throw new CalculatorError('Division by zero', token.at);
      value = token.value === '*' ? value * right : token.value === '/' ? value / right : value % right;
    }
    return value;
  };
  // unary := ('-' | '+') unary | power
  const unary = (): number =>
    nested(() => {
      if (isOp('-')) {
        pos++;
        return -unary();
      }
      if (isOp('+')) {
        pos++;
        return unary();
      }
      return power();
    });
  // power := atom ('^' unary)?   (right-associative: 2^3^2 = 2^9)
  const power = (): number => {
    const base = atom();
    if (!isOp('^')) return base;
    pos++;
    return base ** unary();
  };
  // atom := number | constant | function '(' sum (',' sum)* ')' | '(' sum ')'
  const atom = (): number => {
    const t = peek();
    if (t.kind === 'number') {
      pos++;
      return t.value;
    }
    if (t.kind === 'name') {
      pos++;
      if (Object.hasOwn(CONSTANTS, t.value) && !isOp('(')) return CONSTANTS[t.value] as number;
      const fn = Object.hasOwn(FUNCTIONS, t.value) ? FUNCTIONS[t.value] : undefined;
      if (!fn) throw new CalculatorError(`Unknown name '${t.value}'`, t.at);
      expect('(');
      const args = [nested(sum)];
      while (isOp(',')) {
        pos++;
        args.push(nested(sum));
      }
      expect(')');
      const [least, most] = fn.arity;
      if (args.length < least || args.length > most)
        throw new CalculatorError(`${t.value} takes ${least === most ? least : `${least} to ${most}`} arguments`, t.at);
      return fn.fn(...args);
    }
    if (isOp('(')) {
      pos++;
      const value = nested(sum);
      expect(')');
      return value;
    }
    throw new CalculatorError(
      t.kind === 'end' ? 'The expression ends too soon' : `Unexpected '${t.value}'${where(t)}`,
      t.at,
    );
  };

  if (peek().kind === 'end') throw new CalculatorError('The expression is empty', 0);
  const value = sum();
  if (peek().kind !== 'end') {
    const t = peek() as Exclude<Token, { kind: 'end' }>;
    throw new CalculatorError(`Unexpected '${t.value}'${where(t)}`, t.at);
  }
  if (!Number.isFinite(value)) throw new CalculatorError(`The result is not a finite number (${value})`, 0);
  return value;
}

/** A result as people write it: no float noise (`0.1 + 0.2` → 0.3). */
export function tidy(value: number): number {
  return Number.isInteger(value) ? value : Number(value.toPrecision(12));
}
