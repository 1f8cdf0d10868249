// Generated from the registry's mirrors by tools/deploy-gen (npm run deploy:gen); do not edit.
import { runMirrorApp } from '@router/mirror';
import { vendorIMirror } from '@router/vendor-i';

runMirrorApp(vendorIMirror, process.env);
