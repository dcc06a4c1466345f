// Cases that run in Node (pure code compared with npm peers), and figures derived from results.
import type { BenchCase, BenchResult } from '../case';
import { deriveOutputLinearity } from '../output-linearity';
import { bundleCases } from './bundle';
import { derivePartialJson, partialJsonCases } from './partial-json';

export const nodeCases: BenchCase[] = [...partialJsonCases, ...bundleCases];

export const derivations: ((results: BenchResult[]) => BenchResult[])[] = [derivePartialJson, deriveOutputLinearity];
