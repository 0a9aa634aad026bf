" ALE linter: tvmls, the TVMScript language server, for saved IR dumps (filetype tvmscript).
call ale#linter#Define('tvmscript', tvmls#LinterDefinition('tvmscript'))
