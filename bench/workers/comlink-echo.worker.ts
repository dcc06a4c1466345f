/// <reference lib="webworker" />
import { expose } from 'comlink';

expose({ echo: (value: unknown) => value });
