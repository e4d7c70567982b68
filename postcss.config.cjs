// Panda generates the atomic CSS that the components actually use, straight from the source files.
module.exports = {
  plugins: {
    '@pandacss/dev/postcss': {},
  },
};
