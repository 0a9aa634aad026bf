-- nvim-lspconfig (newer releases) reads server configurations from lspconfig.configs.<name>.
return require('lspconfig.server_configurations.tvmls')
