module spvx

go 1.26
