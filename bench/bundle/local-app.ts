// What a page imports to run a model in the browser (bench/node/bundle.ts measures it).
import { localModel } from '../../src/local/index';

export { localModel };
