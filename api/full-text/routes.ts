import searchFullText from './search-full-text.ts';

export default [searchFullText];
