import { describe, expect, it } from 'vitest';
import { CalculatorError, evaluate, tidy } from './calculator';

describe('the demo calculator', () => {
  it.each([
    ['3 * 12', 36],
    ['11 + 49', 60],
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 10', 1024],
    ['-2 ^ 2', -4],
    ['10 % 4', 2],
    ['7 / 2', 3.5],
    ['2e7 / 1_000', 20_000],
    ['.5 + 1.', 1.5],
    ['sqrt(16) + abs(-3)', 7],
    ['max(1, 5, 3) - min(4, 2)', 3],
    ['round(pi * 100) / 100', 3.14],
    ['12 × 3 ÷ 4 − 1', 8],
    ['log(1000) + ln(e)', 4],
  ])('%s = %d', (expression, value) => {
    expect(tidy(evaluate(expression))).toBe(value);
  });

  it('tidies float noise', () => {
    expect(tidy(evaluate('0.1 + 0.2'))).toBe(0.3);
  });

  it.each([
    ['', /empty/],
    ['1 +', /ends too soon/],
    ['(1 + 2', /Expected '\)' at the end/],
    ['1 / 0', /Division by zero/],
    ['2 $ 3', /Unexpected character '\$'/],
    ['alert(1)', /Unknown name 'alert'/],
    ['constructor', /Unknown name/],
    ['1 2', /Unexpected '2' at position 3/],
    ['sqrt(1, 2)', /sqrt takes 1 arguments/],
    ['10 ^ 400', /not a finite number/],
    ['1__0', /Malformed number/],
    [`${'-'.repeat(300)}1`, /nests too deeply/],
    [`${'('.repeat(150)}1${')'.repeat(150)}`, /nests too deeply/],
    [`${'1+'.repeat(600)}1`, /longer than 1000/],
  ])('refuses %j with a CalculatorError', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(CalculatorError);
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('refuses what is not text', () => {
    expect(() => evaluate(42 as never)).toThrow(/must be text/);
  });
});
