import { describe, expect, it } from 'vitest';
import { convert, UnitError } from './units';

describe('the demo unit converter', () => {
  it.each([
    [5, 'km', 'miles', 3.10686, '5 km = 3.10686 mi'],
    [1, 'mile', 'km', 1.60934, '1 mi = 1.60934 km'],
    [100, '°C', '°F', 212, '100 °C = 212 °F'],
    [32, 'fahrenheit', 'celsius', 0, '32 °F = 0 °C'],
    [0, 'K', 'C', -273.15, '0 K = -273.15 °C'],
    [10, 'lbs', 'kg', 4.53592, '10 lb = 4.53592 kg'],
    [2, 'Cups', 'ml', 473.176, '2 cup = 473.176 ml'],
    [90, 'minutes', 'hours', 1.5, '90 min = 1.5 h'],
    [100, 'km/h', 'mph', 62.1371, '100 km/h = 62.1371 mph'],
    [1, 'GiB', 'MB', 1073.74, '1 GiB = 1073.74 MB'],
    [12, 'fluid ounces', 'l', 0.354882, '12 fl oz = 0.354882 l'],
  ])('%d %s to %s', (value, from, to, result, text) => {
    expect(convert(value, from, to)).toMatchObject({ result, text });
  });

  it('refuses units of different kinds, unknown units, and impossible temperatures', () => {
    expect(() => convert(1, 'kg', 'km')).toThrow(new UnitError('Cannot convert mass (kg) to length (km)'));
    expect(() => convert(1, 'parsec', 'km')).toThrow(/Unknown unit 'parsec'. Known: m, km/);
    expect(() => convert(-500, '°C', 'K')).toThrow(/below absolute zero/);
    expect(() => convert(Number.NaN, 'm', 'km')).toThrow(/finite number/);
    expect(() => convert(1, 3 as never, 'km')).toThrow(/must be text/);
  });
});
