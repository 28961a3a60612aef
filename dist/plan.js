import './index.js';
