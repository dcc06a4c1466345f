import { setUpLiveArgs } from './live-args';
import { setUpWorkerTools } from './worker-tools';

setUpLiveArgs();
setUpWorkerTools();
