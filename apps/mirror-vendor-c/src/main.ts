import { runMirrorApp } from '@router/mirror';
import { vendorCMirror } from '@router/vendor-c';

runMirrorApp(vendorCMirror, process.env);
