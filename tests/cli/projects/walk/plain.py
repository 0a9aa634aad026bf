print('no TVMScript here')
