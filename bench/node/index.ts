// Cases that run in Node (pure code compared with npm peers). Issues add theirs here.
import type { BenchCase } from '../case';

export const nodeCases: BenchCase[] = [];
