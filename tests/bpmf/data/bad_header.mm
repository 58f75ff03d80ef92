%%MatrixMarket matrix array real general
4 3
1
2
